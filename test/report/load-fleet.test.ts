// loadReportInput over several directories: results roots and run directories merged, copies counted once, ids kept
// unique, a bad record or directory named and the rest merged, monitor logs found beside their own records.
import { cp, mkdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { loadReportInput } from '../../src/report/load.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { DEMO_DIR, DEMO_RUN_ID } from './support/demo.ts'
import { loadFleet, MAIN_ROOT, OTHER_ROOT, SHARD_DIR, SHARD_RUN_ID, STAGE_RUN_ID } from './support/fleet.ts'

const hosts = (records: { provenance: { host: { hostname: string } } }[]) =>
  records.map((r) => r.provenance.host.hostname).sort()

describe('merging results directories', () => {
  test('two results roots: every run directory of each, one run ID spread over both, every record once', async () => {
    const input = await loadFleet()
    expect(input.records).toHaveLength(11)
    expect(input.sources?.map((s) => [s.dir.slice(s.dir.indexOf('fleet/')), s.records, s.runIds])).toEqual([
      [`fleet/results/${STAGE_RUN_ID}`, 4, [STAGE_RUN_ID]],
      [`fleet/results/${SHARD_RUN_ID}`, 5, [SHARD_RUN_ID]],
      [`fleet/other-root/${STAGE_RUN_ID}`, 2, [STAGE_RUN_ID]],
    ])
    expect(input.runId).toBe(`2 runs: ${STAGE_RUN_ID}, ${SHARD_RUN_ID}`)
    const stage = input.records.filter((r) => r.provenance.runId === STAGE_RUN_ID)
    expect(hosts(stage)).toEqual(['gpu-a-01', 'gpu-a-02', 'node-01', 'node-02', 'node-03', 'node-04'])
    expect(input.invalid).toEqual([])
  })

  test('one run directory alone reads as before: no sources, its run ID', async () => {
    const input = await loadReportInput({ resultsDir: SHARD_DIR })
    expect(input.sources).toBeUndefined()
    expect(input.runId).toBe(SHARD_RUN_ID)
    expect(input.resultsDir).toBe(SHARD_DIR)
    expect(input.records).toHaveLength(5)
  })

  test('a directory read twice (a root and its own run directory) counts its records once, and says so', async () => {
    const input = await loadFleet([MAIN_ROOT, SHARD_DIR, MAIN_ROOT])
    expect(input.records).toHaveLength(9)
    expect(new Set(input.records.map((r) => r.id)).size).toBe(9)
    // SHARD_DIR is one of MAIN_ROOT's run directories: visited once, nothing to count twice.
    expect(input.sources).toHaveLength(2)
  })

  test('a copy of a record in another directory is counted once; another host with the same id is kept, renamed', async () => {
    const work = tempDirUntilFileEnd('load-fleet-')
    const [a, b] = [join(work, 'a'), join(work, 'b')]
    await cp(join(MAIN_ROOT, STAGE_RUN_ID), a, { recursive: true })
    await mkdir(b)
    const file = 'stage-cpu-tiny-node-01.json'
    await cp(join(a, file), join(b, file))
    const other = JSON.parse(await readFile(join(a, file), 'utf8'))
    other.provenance.host.hostname = 'node-99'
    other.createdAt = '2026-03-05T08-30-00Z'
    await writeFile(join(b, 'stage-cpu-tiny-node-01-again.json'), JSON.stringify({ ...other }))
    const input = await loadReportInput({ resultsDir: [a, b] })
    expect(input.records).toHaveLength(5)
    expect(input.records.map((r) => r.id)).toContain('stage-cpu-tiny-node-01-node-99')
    expect(input.sources?.[1]).toMatchObject({ records: 1, duplicates: 1 })
    expect(input.seriesNotes).toContain(
      '1 record(s) found in more than one directory (same run, id, time and host): counted once',
    )
    expect(input.seriesNotes).toContain(
      "1 record(s) shared an id with a record read before them (another host's): shown as <id>-<host>",
    )
  })

  test('a truncated record in one directory is named and left out; the rest is merged', async () => {
    const work = tempDirUntilFileEnd('load-fleet-')
    const root = join(work, 'other')
    await cp(OTHER_ROOT, root, { recursive: true })
    const broken = join(root, STAGE_RUN_ID, 'zz-truncated.json')
    const text = await readFile(join(root, STAGE_RUN_ID, 'stage-cpu-tiny-node-04.json'), 'utf8')
    await writeFile(broken, text.slice(0, text.length / 2))
    const input = await loadFleet([MAIN_ROOT, root])
    expect(input.records).toHaveLength(11)
    expect(input.invalid).toEqual([
      { file: broken, reason: expect.stringMatching(/^not valid JSON: .*\(cut short while written\?\)$/) },
    ])
    expect(input.sources?.at(-1)).toMatchObject({ records: 2, invalid: 1, problem: null })
  })

  test('a directory that cannot be read is a note and a source with its problem; the others are merged', async () => {
    const missing = join(tempDirUntilFileEnd('load-fleet-'), 'gone')
    const input = await loadFleet([missing, OTHER_ROOT])
    expect(input.records).toHaveLength(2)
    expect(input.sources?.[0]).toMatchObject({ dir: missing, records: 0, problem: expect.stringMatching(/ENOENT/) })
    expect(input.seriesNotes[0]).toMatch(new RegExp(`^results directory ${missing}: not read \\(ENOENT`))
  })

  test("relative monitor logs are read beside their own record's directory, whichever directories are merged", async () => {
    const input = await loadReportInput({ resultsDir: [DEMO_DIR, OTHER_ROOT] })
    const demo = input.records.find((r) => r.id === 'scaling-reference')!
    const logPath = demo.runs[0]!.gpu!.logPath!
    expect(logPath).toBe(join(DEMO_DIR, 'monitor', '1-gpu-1.jsonl'))
    expect(input.series.get(logPath)?.length).toBeGreaterThan(0)
    expect(input.seriesNotes.some((n) => n.includes(DEMO_DIR))).toBe(false)
  })
})

describe('a moved run directory', () => {
  const root = tempDirUntilFileEnd('load-moved-')
  /** The demo run copied to `<root>/<name>/<run ID>`, its records naming their logs by the absolute path they had at `gone`. */
  async function moved(name: string, gone: string) {
    const dir = join(root, name, DEMO_RUN_ID)
    await cp(DEMO_DIR, dir, { recursive: true })
    for (const file of ['scaling-reference.json', 'memory-reference.json']) {
      const record = JSON.parse(await readFile(join(dir, file), 'utf8'))
      for (const run of record.runs) if (run.gpu?.logPath) run.gpu.logPath = join(gone, run.gpu.logPath)
      await writeFile(join(dir, file), JSON.stringify(record))
    }
    return dir
  }

  test('absolute monitor log paths of the machine that wrote them are found under the run directory it moved to', async () => {
    // As written on a GPU node: /work/main/results/<run ID>/monitor/...; read here from a downloaded copy.
    const dir = await moved('artifact', join('/no/such/node/results', DEMO_RUN_ID))
    for (const input of [
      await loadReportInput({ resultsDir: dir }),
      await loadReportInput({ resultsDir: [dir, OTHER_ROOT] }),
    ]) {
      // (The other root's committed records name logs that were never committed: their notes are not this test's.)
      expect(input.seriesNotes.filter((n) => n.includes('not read') && n.includes(DEMO_RUN_ID))).toEqual([])
      const demo = input.records.find((r) => r.id === 'scaling-reference')!
      expect(input.series.get(demo.runs[0]!.gpu!.logPath!)?.length).toBeGreaterThan(0)
    }
  })

  test('a path without the run ID in it is not guessed at: the log is named as not read', async () => {
    const dir = await moved('elsewhere', '/no/such/place')
    const input = await loadReportInput({ resultsDir: dir })
    expect(input.seriesNotes).toContainEqual(
      expect.stringMatching(
        /^monitor log \/no\/such\/place\/monitor\/1-gpu-1\.jsonl: not read \(no such file or directory \(ENOENT\)\)/,
      ),
    )
  })
})
