// What `report`, `capacity` and `history add` make of a run directory an interrupted invocation left: its finished runs
// in the run journal and no record. Laid out here from a real record (2 x H200, issue 24's call G) as its invocation
// would have left it had it been killed before writing the record: every run's `run.json` and the measurement file.
import { readFileSync } from 'node:fs'
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect, test } from 'vitest'
import { slug } from '../../src/engine/configuration.ts'
import { JOURNAL_FORMAT } from '../../src/results/schema/run-entry.ts'
import { h200Record, h200RunDirs } from '../capacity/support/gpu-capacity.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const CLI = join(import.meta.dirname, '../../src/cli.ts')
const cli = (args: string[]) => execa(process.execPath, [CLI, ...args], { reject: false, env: { NO_COLOR: '1' } })

const root = tempDirUntilFileEnd('interrupted-')
const armOf = (label: string) => label.replace(/ (?:run|warm-up) \d+$/, '')

/** The record's runs as a journal (one slot an arm), without the record itself. */
async function journalOnly(dir: string): Promise<void> {
  const record = h200Record('g')
  const arms = [...new Set(record.runs.map((r) => armOf(r.label)))]
  const slotOf = (arm: string) => `slot-${arms.indexOf(arm)}`
  for (const [i, measured] of record.runs.entries()) {
    const runDir = join(dir, 'work', slotOf(armOf(measured.label)), slug(measured.label))
    await mkdir(runDir, { recursive: true })
    const entry = {
      format: JOURNAL_FORMAT,
      key: {},
      measured,
      extras: { esm2Batches: [], esm2Completions: [], memory: [], monitorProblem: null, versions: {} },
      measuredBy: { invocation: 'killed', host: 'gpu-host', pid: 4242 },
      finishedAt: new Date(Date.parse(record.createdAt) - (record.runs.length - i) * 1000).toISOString(),
    }
    await writeFile(join(runDir, 'run.json'), JSON.stringify(entry))
  }
  await mkdir(join(dir, 'work', 'measurements'), { recursive: true })
  await writeFile(
    join(dir, 'work', 'measurements', `${record.id}-0000.json`),
    JSON.stringify({
      format: JOURNAL_FORMAT,
      purpose: { kind: 'capacity', id: record.id, name: record.name },
      arms: arms.map((label) => ({ label, slot: slotOf(label) })),
      plannedRuns: 3,
      provenance: record.provenance,
      thresholds: record.thresholds,
      startedAt: record.runs[0]!.run.startedAt,
    }),
  )
}

let whole = ''
const journal = join(root, 'journal', h200Record('g').provenance.runId)
beforeAll(async () => {
  whole = (await h200RunDirs(join(root, 'whole'), ['g']))[0]!
  await journalOnly(journal)
})

describe('an interrupted run directory (its runs in the journal, no record)', () => {
  test('capacity refits its runs as it would the record, and says they are partial', async () => {
    const [fromRecord, fromJournal] = await Promise.all([
      cli(['capacity', whole, '--json', join(root, 'whole.json')]),
      cli(['capacity', journal, '--json', join(root, 'journal.json')]),
    ])
    expect(fromRecord.exitCode, fromRecord.stderr).toBe(0)
    expect(fromJournal.exitCode, fromJournal.stderr).toBe(0)
    expect(fromJournal.stderr).toContain(`'${h200Record('g').name}' is partial (interrupted: `)
    const read = (name: string) => JSON.parse(readFileSync(join(root, name), 'utf8'))
    const [a, b] = [read('whole.json'), read('journal.json')]
    expect(b.configurations).toEqual(a.configurations)
    expect(b.verdicts).toEqual(a.verdicts)
  })

  test('report shows it partial, with its figures and no verdict', async () => {
    const out = join(root, 'reports')
    const report = await cli(['report', journal, '--out', out])
    expect(report.exitCode, report.stderr).toBe(0)
    expect(report.stdout).toMatch(/PARTIAL +capacity .*\| \d+ completed run\(s\) kept, median wall [\d.]+ s/)
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))
    expect(summary.counts).toMatchObject({ records: 1, partial: 1, completed: 0 })
    expect(summary.suites[0]).toMatchObject({ state: 'partial', verdict: 'partial', counts: { pass: 0, fail: 0 } })
  })

  test('history add leaves it out of every series, and says how to add it', async () => {
    const add = await cli(['history', 'add', journal, '--db', join(root, 'history.sqlite')])
    expect(add.exitCode).toBe(3)
    expect(add.stderr).toContain('left out: partial (interrupted: ')
    expect(add.stderr).toContain('holds only partial measurements')
    expect(add.stderr).toContain('continue it with the same command, then add it; nothing was added')
  })
})
