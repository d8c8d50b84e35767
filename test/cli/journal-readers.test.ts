// Issue 40, cases 2 and 3 from the readers' side: `report`, `capacity` and `history add` over a run directory whose
// journal holds runs that must not be read as the measurement's (a measurement of the same record under another key,
// a `run.json` copied in from another input, a wall time of 1e308 ms), and a record written twice for one finished run.
// Each is named in the words continuing uses and left out; nothing is pooled, judged or stored twice. Laid out from a
// real record (2 x H200, issue 24's call G) with the journal's own writers' shapes (interrupted-capacity.ts).
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { slug } from '../../src/engine/configuration.ts'
import type { ResultRecord } from '../../src/results/schema/index.ts'
import { JOURNAL_FORMAT } from '../../src/results/schema/run-entry.ts'
import { finishedCapacityDir, interruptedCapacityDir } from '../capacity/support/interrupted-capacity.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const CLI = join(import.meta.dirname, '../../src/cli.ts')
const cli = (args: string[]) => execa(process.execPath, [CLI, ...args], { reject: false, env: { NO_COLOR: '1' } })
const root = tempDirUntilFileEnd('journal-readers-')
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** `report`'s line for the capacity record: how many measured runs it counts of how many planned. */
async function reportedKept(dir: string): Promise<{ line: string; stderr: string }> {
  const report = await cli(['report', dir, '--out', join(dir, '..', `${slug(dir)}-reports`)])
  expect(report.exitCode, report.stderr).toBe(0)
  const line = report.stdout.split('\n').find((l) => /capacity/.test(l) && /measured run\(s\) kept/.test(l)) ?? ''
  return { line, stderr: report.stderr }
}

/** What the tests change of a kept run's entry. */
type EditableEntry = { key: unknown; measured: { run: { wallMs: number } } }

/** Rewrites one kept run's `run.json` (the run of `label`) through `change`. */
async function editRun(dir: string, record: ResultRecord, label: string, change: (entry: EditableEntry) => void) {
  const arms = [...new Set(record.runs.map((r) => r.label.replace(/ (?:run|warm-up) \d+$/, '')))]
  const arm = label.replace(/ (?:run|warm-up) \d+$/, '')
  const file = join(dir, 'work', `slot-${arms.indexOf(arm)}`, slug(label), 'run.json')
  const entry = JSON.parse(await readFile(file, 'utf8'))
  change(entry)
  await writeFile(file, JSON.stringify(entry))
  return file
}

describe('readers of an interrupted run accept only the runs that stand for its measurement', () => {
  test('a measurement of the same record under another key is named and left out, not pooled', async () => {
    const dir = join(root, 'two-keys', 'run')
    const record = await interruptedCapacityDir(dir, 4)
    // The same record continued with another input (VIRNUCPRO_BENCH_RECORDS changed): its own slot, one run kept.
    const measured = record.runs[1]!
    const key = { arm: { inputSha256: 'c0ffee' } }
    const slot = 'slot-other-input'
    await mkdir(join(dir, 'work', slot, slug(measured.label)), { recursive: true })
    await writeFile(
      join(dir, 'work', slot, slug(measured.label), 'run.json'),
      JSON.stringify({
        format: JOURNAL_FORMAT,
        key,
        measured,
        extras: { esm2Batches: [], esm2Completions: [], memory: [], monitorProblem: null, versions: {} },
        measuredBy: { invocation: 'later', host: 'gpu-host', pid: 4343 },
        finishedAt: '2030-01-01T00:00:00.000Z',
      }),
    )
    await writeFile(
      join(dir, 'work', 'measurements', `${record.id}-1111.json`),
      JSON.stringify({
        format: JOURNAL_FORMAT,
        purpose: { kind: 'capacity', id: record.id, name: record.name },
        arms: [{ label: '1 GPU, 1,000 seqs', slot, key }],
        plannedRuns: 3,
        provenance: record.provenance,
        thresholds: record.thresholds,
        startedAt: '2030-01-01T00:00:00.000Z',
      }),
    )
    const { line, stderr } = await reportedKept(dir)
    // Only the newest measurement's one run, of its 3 planned; never "4 of ..." pooled across two inputs.
    expect(line).toContain('1 of 3 measured run(s) kept')
    expect(stderr).toMatch(
      new RegExp(
        `${record.id}-0000\\.json: run journal: its 4 run\\(s\\) left out of '${record.id}': measured under another key than its newest measurement \\(${record.id}-1111\\.json\\): arm \\(was absent, now`,
      ),
    )
  })

  test('a run.json copied from another input is named with what differs, as continuing names it, and left out', async () => {
    const dir = join(root, 'copied', 'run')
    const record = await interruptedCapacityDir(dir, 7)
    // The measurement's arms keyed as the suite keys them now; one run's file copied from a run of another input.
    const measurements = join(dir, 'work', 'measurements', `${record.id}-0000.json`)
    const m = JSON.parse(await readFile(measurements, 'utf8'))
    m.arms = m.arms.map((a: object) => ({ ...a, key: {} }))
    await writeFile(measurements, JSON.stringify(m))
    const file = await editRun(dir, record, '1 GPU, 1,000 seqs run 3', (e) => {
      e.key = { arm: { inputSha256: 'another-input' } }
    })
    const { line, stderr } = await reportedKept(dir)
    expect(stderr).toContain(
      `${file}: run journal: left out of '${record.id}': its key differs: arm (was {"inputSha256":"another-input"}, now absent)`,
    )
    // 7 runs kept, the first a warm-up: 6 measured, one left out.
    expect(line).toContain('5 of 12 measured run(s) kept')
  })

  test('a wall time of 1e308 ms is no run: named, left out, never judged PASS', async () => {
    const dir = join(root, 'implausible', 'run')
    const record = await interruptedCapacityDir(dir)
    const file = await editRun(dir, record, '2 GPUs, 4,000 seqs run 3', (e) => {
      e.measured.run.wallMs = 1e308
    })
    const { line, stderr } = await reportedKept(dir)
    expect(stderr).toContain(
      `${file}: run journal: left out of '${record.id}': its figures are implausible: wall time 1e+308 ms is more than 30 days`,
    )
    expect(line).toContain('11 of 12 measured run(s) kept')
    const capacity = await cli(['capacity', dir, '--json', join(root, 'implausible.json')])
    expect(capacity.exitCode, capacity.stderr).toBe(0)
    const answer = JSON.parse(await readFile(join(root, 'implausible.json'), 'utf8'))
    const walls = (answer.configurations as { runs?: { wallMs: number }[] }[]).flatMap((c) => c.runs ?? [])
    expect(walls.every((r) => r.wallMs < 1e9)).toBe(true)
  })

  // The damaged kept runs continuing names precisely (kept-runs.ts: "its run.json is unreadable (...)"), which `report`
  // read as "no .json record files there".
  test.each([
    ['cut short', (f: string) => writeFile(f, '{"format":1,"key":{'), /not valid JSON: .*cut short while written/],
    ['empty', (f: string) => writeFile(f, ''), /empty: no JSON in it/],
    ['of another journal format', (f: string) => writeFile(f, '{"format":7}'), /journal format 7, this code reads 1/],
    ['no run entry', (f: string) => writeFile(f, '{"format":1,"key":{}}'), /not a run entry: measured: /],
    ['a folder', async (f: string) => mkdir(f), /.+/],
    ['a FIFO', (f: string) => execa('mkfifo', [f]), /.+/],
  ] as const)('a kept run.json %s is named by report and history add, and left out', async (kind, damage, reason) => {
    const dir = join(root, 'damaged', slug(kind), 'run')
    const record = await interruptedCapacityDir(dir, 3)
    const file = await editRun(dir, record, '1 GPU, 1,000 seqs run 3', () => {})
    await rm(file)
    await damage(file)
    const report = await cli(['report', dir, '--out', join(root, 'damaged', slug(kind), 'reports')])
    const named = new RegExp(`${escapeRegExp(file)}: run journal: left out: its run\\.json is unreadable \\(`)
    expect(report.stderr, report.stderr).toMatch(named)
    expect(report.stderr.slice(report.stderr.search(named))).toMatch(reason)
    expect(report.stdout).toContain('1 of 12 measured run(s) kept')
    const add = await cli(['history', 'add', dir, '--db', join(root, 'damaged', `${slug(kind)}.sqlite`)])
    expect(add.stderr).toMatch(named)
  })

  test('a record written twice for one finished run is read once: report counts one, history add stores one', async () => {
    const dir = join(root, 'twice', 'run')
    const record = await finishedCapacityDir(dir)
    const copy = { ...JSON.parse(await readFile(join(dir, `${record.id}.json`), 'utf8')), id: `${record.id}-2` }
    copy.createdAt = new Date(Date.parse(copy.createdAt) + 60_000).toISOString()
    await writeFile(join(dir, `${record.id}-2.json`), JSON.stringify(copy))
    const out = join(root, 'twice-reports')
    const report = await cli(['report', dir, '--out', out])
    expect(report.exitCode, report.stderr).toBe(0)
    expect(report.stderr).toContain(
      `${join(dir, `${record.id}-2.json`)}: a copy of record '${record.id}' (the same runs, written again when its finished run was run again): left out`,
    )
    const summary = JSON.parse(await readFile(join(out, 'summary.json'), 'utf8'))
    expect(summary.counts.records).toBe(1)
    const db = join(root, 'twice.sqlite')
    const add = await cli(['history', 'add', dir, '--db', db])
    expect(add.exitCode, add.stderr).toBe(0)
    expect(add.stdout).toContain(`run ${record.provenance.runId}: added 1 record(s)`)
    expect(add.stderr).toContain(`a copy of record '${record.id}'`)
    const again = await cli(['history', 'add', dir, '--db', db])
    expect(again.exitCode, again.stderr).toBe(0)
    expect(again.stdout).toContain(`run ${record.provenance.runId}: already present (1 records), nothing added`)
  })
})
