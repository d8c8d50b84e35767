// What `report`, `capacity` and `history add` make of a run directory an interrupted invocation left: its finished runs
// in the run journal and no record. Laid out from a real record (2 x H200, issue 24's call G) as its invocation would
// have left it had it been killed before writing the record (test/capacity/support/interrupted-capacity.ts).
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { beforeAll, describe, expect, test } from 'vitest'
import { h200Record } from '../capacity/support/gpu-capacity.ts'
import { finishedCapacityDir, interruptedCapacityDir } from '../capacity/support/interrupted-capacity.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const CLI = join(import.meta.dirname, '../../src/cli.ts')
const cli = (args: string[]) => execa(process.execPath, [CLI, ...args], { reject: false, env: { NO_COLOR: '1' } })

const root = tempDirUntilFileEnd('interrupted-')

let whole = ''
const journal = join(root, 'journal', h200Record('g').provenance.runId)
beforeAll(async () => {
  // The same measurement finished (its record as today's analysis writes it: the decided design's six looks), and as a
  // killed invocation left it: every run in the journal, no record.
  whole = join(root, 'whole', h200Record('g').provenance.runId)
  await finishedCapacityDir(whole)
  await interruptedCapacityDir(journal)
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
    // The same verdicts, the journal's provisional (its measurement never stopped), the record's final.
    const without = (v: { provisional: boolean }) => ({ ...v, provisional: undefined })
    expect(b.verdicts.map(without)).toEqual(a.verdicts.map(without))
    expect(b.verdicts.every((v: { provisional: boolean }) => v.provisional)).toBe(true)
    expect(a.verdicts.some((v: { provisional: boolean }) => v.provisional)).toBe(false)
    // Stopped, but with no held-out run: UNCHECKED, never FINAL (issue 48).
    expect([a.answer.statusText, b.answer.statusText]).toEqual([
      'UNCHECKED (no held-out run)',
      'PROVISIONAL (12 of 12 runs)',
    ])
  })

  test('report shows it partial, with its figures and no final verdict', async () => {
    const out = join(root, 'reports')
    const report = await cli(['report', journal, '--out', out])
    expect(report.exitCode, report.stderr).toBe(0)
    expect(report.stdout).toMatch(/PARTIAL +capacity .*\| 12 of 12 measured run\(s\) kept, median wall [\d.]+ s/)
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
