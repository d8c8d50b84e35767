import { describe, expect, test } from 'vitest'
import { analyzeStudyRecords, type StudyEntry, withoutStudySettings } from '../../../src/report/analyses/study.ts'
import { OUTPUTS_HEAD, type StudyTable } from '../../../src/report/analyses/study-table.ts'
import { sampleResultRecord, sampleRunRecord } from '../../support/result-records.ts'
import {
  BEST,
  DIFFER_DETAIL,
  EQUAL_DETAIL,
  NOTHING_TO_COMPARE,
  OUTPUTS_DIFFER,
  SLOWER,
  studyRecord,
  withStats,
} from '../support/study.ts'

type TableEntry = Extract<StudyEntry, { shows: 'table' }>

function tableOf(entry: StudyEntry | undefined): TableEntry {
  if (entry?.shows !== 'table') throw new Error(`no table: ${entry?.shows === 'line' ? entry.line : 'no entry'}`)
  return entry
}

/** The row of `setting` as a map from column heading to cell. */
function rowOf(table: StudyTable, setting: string): Record<string, string> {
  const row = table.rows.find((r) => r[0]!.startsWith(setting))
  if (!row) throw new Error(`no row ${setting}`)
  return Object.fromEntries(table.head.map((h, i) => [h, row[i]!]))
}

const column = (table: StudyTable, start: string) => table.head.find((h) => h.startsWith(start))!

describe('a finished settings study as one table', () => {
  const entry = tableOf(analyzeStudyRecords([studyRecord()]).entries[0])
  const { table } = entry

  test('one row per setting, the default first and the best next, each marked', () => {
    expect(table.rows.map((r) => r[0])).toEqual([
      'default',
      `${BEST} (best)`,
      SLOWER,
      OUTPUTS_DIFFER,
      NOTHING_TO_COMPARE,
    ])
    expect(rowOf(table, BEST)['options added']).toBe('--dnabert-batch-size 2048')
    expect(rowOf(table, 'default')['options added']).toBe('none')
  })

  test('6 M hours per GPU count with their interval and PERF-01 state; one unit per column, named in its heading', () => {
    const h2 = column(table, 'hours at 6 M on 2 GPUs')
    expect(table.head).toContain('hours at 6 M on 1 GPU [interval], PERF-01')
    expect(rowOf(table, 'default')[h2]).toBe('12.20 h [10.70, 14.00] FAIL')
    expect(rowOf(table, BEST)[h2]).toBe('7.40 h [6.50, 8.30] PASS')
    // A setting the screen dropped has no capacity answer: no hours, never a zero.
    expect(rowOf(table, SLOWER)[h2]).toBe('not measured')
  })

  test('2 GPUs against 1 at 6 M with its threshold and state', () => {
    const vs = column(table, '2 GPUs against 1 at 6 M')
    expect(rowOf(table, BEST)[vs]).toBe('1.89x [1.70, 2.10] against 1.9x: UNDECIDED')
    expect(rowOf(table, 'default')[vs]).toBe('1.77x [1.52, 2.05] against 1.9x: UNDECIDED')
  })

  test('the best flips a verdict: named with its states before and after; the sentence says so', () => {
    expect(rowOf(table, BEST)['verdicts against the default']).toBe(
      'flips 1: Does 6 M finish within 10 h on 2 GPUs?: from FAIL to PASS',
    )
    expect(rowOf(table, 'default')['verdicts against the default']).toBe('the reference')
    expect(entry.sentence).toBe(
      `FINAL: of 4 settings screened on 2 GPUs, the best with the default's outputs is ${BEST} (--dnabert-batch-size 2048): 6 M takes 14.0 h [12.1, 16.2] on 1 GPU and 7.4 h [6.5, 8.3] on 2 GPUs; the default: 6 M takes 21.6 h [18.7, 25.8] on 1 GPU and 12.2 h [10.7, 14.0] on 2 GPUs; it decides 1 verdict(s) otherwise than the default.`,
    )
  })

  // Issue 47: "it decides 4 verdict(s) otherwise than the default" where all four were the best left UNDECIDED (or AT
  // THRESHOLD) where the default decided. A flip is a decided verdict turned to the other decided side, in records
  // written before the fix too.
  test('a verdict left undecided or at threshold where the default decided is no flip; PASS to FAIL is', () => {
    const stored = withStats(studyRecord(), (s) => {
      const best = s.rows.find((r) => r.label === BEST)!
      const one = best.flips[0]!
      best.flips = [
        { ...one, id: 'a', from: 'fail', to: 'undecided' },
        { ...one, id: 'b', from: 'pass', to: 'at-threshold' },
        { ...one, id: 'c', from: 'undecided', to: 'pass' },
        { ...one, id: 'd', from: 'pass', to: 'fail' },
      ]
    })
    const e = tableOf(analyzeStudyRecords([stored]).entries[0])
    expect(rowOf(e.table, BEST)['verdicts against the default']).toBe(
      'flips 1: Does 6 M finish within 10 h on 2 GPUs?: from PASS to FAIL',
    )
    expect(e.sentence).toMatch(/; it decides 1 verdict\(s\) otherwise than the default\.$/)
  })

  test('a best that flips nothing reads "same as default"', () => {
    const same = withStats(studyRecord(), (s) => {
      s.rows.find((r) => r.label === BEST)!.flips = []
    })
    const t = tableOf(analyzeStudyRecords([same]).entries[0]).table
    expect(rowOf(t, BEST)['verdicts against the default']).toBe('same as default')
  })

  test('a setting dropped for different outputs: NO with the detail, the round and why, its last screening median', () => {
    const row = rowOf(table, OUTPUTS_DIFFER)
    // Issue 56: by how much it falls short, and the score differences beside it.
    expect(row[OUTPUTS_HEAD]).toBe(`NO: ${DIFFER_DETAIL} (at 1,000 records)`)
    expect(row[OUTPUTS_HEAD]).toContain('labels agree 97.2%, 1.8 points under 99%')
    expect(row['dropped from the screen']).toBe(
      `round 1 of 2 (1,000 records): outputs not the default's: ${DIFFER_DETAIL}`,
    )
    expect(row['last screening median wall time (s) [interval]']).toBe(
      '35.0 [33.3, 36.8] (round 1, 1,000 records, 2 runs)',
    )
    expect(row['verdicts against the default']).toBe('not measured to the end')
  })

  test('a setting with nothing to compare reads "not compared", never as equal', () => {
    const row = rowOf(table, NOTHING_TO_COMPARE)
    expect(row[OUTPUTS_HEAD]).toMatch(/^not compared: no completed run with outputs/)
    expect(row[OUTPUTS_HEAD]).not.toMatch(/yes/i)
    expect(row['last screening median wall time (s) [interval]']).toBe(
      'no completed run (round 1, 1,000 records, 2 runs)',
    )
    expect(entry.settings.find((s) => s.label === NOTHING_TO_COMPARE)!.outputsEqual).toBeNull()
    // And a row the study holds no comparison for at all.
    const none = withStats(studyRecord(), (s) => {
      s.rows.find((r) => r.label === NOTHING_TO_COMPARE)!.outputs = null
    })
    const t = tableOf(analyzeStudyRecords([none]).entries[0]).table
    expect(rowOf(t, NOTHING_TO_COMPARE)[OUTPUTS_HEAD]).toBe('not compared: no round measured it')
  })

  test('a setting dropped as slower: its round and why beside its last median; equal outputs read yes, with figures', () => {
    const row = rowOf(table, SLOWER)
    expect(row['dropped from the screen']).toBe(
      'round 2 of 2 (4,000 records): in the slower half: 230.0 s against the kept 120.0 s',
    )
    expect(row[OUTPUTS_HEAD]).toBe(`yes: ${EQUAL_DETAIL} (at 4,000 records)`)
  })

  test('notes: the grid, the rounds, and what "not compared" means', () => {
    expect(table.notes[0]).toBe('grid: --dnabert-batch-size 512, 2048, 4096; --cuda-streams 2')
    expect(table.notes[1]).toBe(
      'screened on 2 GPUs by successive halving: round 1 at 1,000 records: 5 setting(s); round 2 at 4,000 records: 3 setting(s)',
    )
    expect(table.notes.join('\n')).toMatch(
      /not compared: nothing to compare on one side, no verdict \(never counted as the default's\)/,
    )
  })

  test('settings carry the figures for machines: the best marked, its hours and flips', () => {
    const best = entry.settings.find((s) => s.isBest)!
    expect(best.label).toBe(BEST)
    expect(best.productionH[1]).toEqual({ gpuCount: 2, hours: { value: 7.4, low: 6.5, high: 8.3 }, state: 'pass' })
    expect(best.flips.map((f) => [f.from, f.to])).toEqual([['fail', 'pass']])
  })

  // Issue 56: the consensus figures behind each outputs verdict, for summary.json and `capacity --json`.
  test('settings carry the consensus figures: agreement, threshold, file and score differences; none where not compared', () => {
    const differ = entry.settings.find((s) => s.label === OUTPUTS_DIFFER)!
    expect(differ.outputsEqual).toBe(false)
    expect(differ.consensus).toMatchObject({
      file: 'prediction_results_highestscore.csv',
      minAgreement: 0.99,
      labelAgreement: 0.972,
      scores: { maxAbs: 0.31, step: 1e-3 },
    })
    expect(entry.settings.find((s) => s.label === NOTHING_TO_COMPARE)!.consensus).toBeNull()
    expect(entry.settings.find((s) => s.isDefault)!.consensus).toBeNull()
  })

  test('a record written before the consensus rule reads, and its note says its own rule judged it', () => {
    const older = withStats(studyRecord(), (s) => {
      for (const r of s.rows) if (r.outputs) delete r.outputs.consensus
    })
    const e = tableOf(analyzeStudyRecords([older]).entries[0])
    expect(e.settings.find((s) => s.label === SLOWER)!.consensus).toBeNull()
    expect(e.table.notes.join('\n')).toContain(
      "outputs the default's: judged as the study that wrote this record judged them (its predictions within the equivalence tolerance)",
    )
  })

  test('no setting beats the default: the sentence says so, and the default is marked best', () => {
    const none = withStats(studyRecord(), (s) => {
      s.best = 'default'
    })
    const e = tableOf(analyzeStudyRecords([none]).entries[0])
    expect(e.sentence).toMatch(
      /^FINAL: of 4 settings screened on 2 GPUs, none beats the default with the default's outputs; the default: 6 M takes 21\.6 h/,
    )
    expect(e.table.rows[0]![0]).toBe('default (best: none beats it)')
  })
})

describe('a partial study reads PROVISIONAL, as every other output', () => {
  test('with figures: its status, the states and the flips marked PROVISIONAL, never a final PASS or FAIL', () => {
    const partial = studyRecord({
      state: 'partial',
      reason: 'interrupted: 12 of 30 measured run(s) kept',
      kept: { runs: 12, planned: 30 },
    })
    const e = tableOf(analyzeStudyRecords([partial]).entries[0])
    expect(e.statusText).toBe('PROVISIONAL (12 of 30 runs)')
    expect(e.sentence).toMatch(/^PROVISIONAL \(12 of 30 runs\): of 4 settings/)
    const best = rowOf(e.table, BEST)
    expect(best[column(e.table, 'hours at 6 M on 2 GPUs')]).toBe('7.40 h [6.50, 8.30] PROVISIONAL PASS')
    expect(best['verdicts against the default']).toBe(
      'flips 1: Does 6 M finish within 10 h on 2 GPUs?: from PROVISIONAL FAIL to PROVISIONAL PASS',
    )
    for (const row of e.table.rows) for (const cell of row) expect(cell).not.toMatch(/(?<!PROVISIONAL )\b(PASS|FAIL)\b/)
  })

  test('a capacity answer still provisional inside a finished study reads PROVISIONAL too', () => {
    const record = withStats(studyRecord(), (s) => {
      s.rows.find((r) => r.label === BEST)!.capacity!.statusText = 'PROVISIONAL (9 of 12 runs)'
    })
    const t = tableOf(analyzeStudyRecords([record]).entries[0]).table
    expect(rowOf(t, BEST)[column(t, 'hours at 6 M on 2 GPUs')]).toBe('7.40 h [6.50, 8.30] PROVISIONAL PASS')
    expect(rowOf(t, 'default')[column(t, 'hours at 6 M on 2 GPUs')]).toBe('12.20 h [10.70, 14.00] FAIL')
    // The default's state is final, the setting's not: each marked by its own answer.
    expect(rowOf(t, BEST)['verdicts against the default']).toMatch(/: from FAIL to PROVISIONAL PASS$/)
  })

  test('no setting through the screen yet: said as not yet, not as none', () => {
    const partial = withStats(
      studyRecord({ state: 'partial', reason: 'interrupted', kept: { runs: 4, planned: 30 } }),
      (s) => ({ ...s, best: null }),
    )
    expect(tableOf(analyzeStudyRecords([partial]).entries[0]).sentence).toBe(
      'PROVISIONAL (4 of 30 runs): of 4 settings screened on 2 GPUs, none has come through the screen yet.',
    )
    const finished = withStats(studyRecord(), (s) => ({ ...s, best: null }))
    expect(tableOf(analyzeStudyRecords([finished]).entries[0]).sentence).toBe(
      "FINAL: of 4 settings screened on 2 GPUs, none came through the screen with the default's outputs.",
    )
  })

  test('stopped inside its screen: the standings its kept runs give, nothing judged, outputs not compared yet', () => {
    const run = (label: string, wallMs: number, extraArgs: string) => ({
      label,
      config: { gpus: [0, 1], extraArgs },
      warmup: label.includes('warm-up'),
      run: sampleRunRecord({ wallMs }),
      gpu: null,
    })
    const partial = studyRecord({
      state: 'partial',
      reason: 'interrupted: 5 of 30 measured run(s) kept',
      kept: { runs: 5, planned: 30 },
      stats: {},
      runs: [
        run('default, 1,000 seqs, round 1 warm-up 1', 90_000, '--v2'),
        run('default, 1,000 seqs, round 1 run 1', 60_000, '--v2'),
        run(`${BEST}, 1,000 seqs, round 1 run 1`, 40_000, '--v2 --dnabert-batch-size 2048'),
        run('default, 1,000 seqs, round 1 run 2', 62_000, '--v2'),
        run(`${BEST}, 1,000 seqs, round 1 run 2`, 42_000, '--v2 --dnabert-batch-size 2048'),
        run(`${SLOWER}, 1,000 seqs, round 1 run 1`, 70_000, '--v2 --dnabert-batch-size 512'),
      ],
    })
    const e = tableOf(analyzeStudyRecords([partial]).entries[0])
    expect(e.sentence).toBe(
      'PROVISIONAL (5 of 30 runs): of 2 settings screened on 2 GPUs, none has come through the screen yet.',
    )
    const rows = new Map(e.settings.map((r) => [r.label, r]))
    expect(rows.get(BEST)).toMatchObject({
      extraArgs: ['--dnabert-batch-size', '2048'],
      outputsEqual: null,
      dropped: null,
      lastScreening: { round: 1, records: 1000, runs: 2, wallMs: { median: 41_000 } },
    })
    // The warm-up is no screening figure: the default's median is of its two measured runs.
    expect(rows.get('default')!.lastScreening).toMatchObject({ runs: 2, wallMs: { median: 61_000 } })
    expect(rows.get(SLOWER)!.lastScreening).toMatchObject({ runs: 1, wallMs: { median: 70_000 } })
    const cells = e.table.rows.find((r) => r[0] === BEST)!
    expect(cells).toContain('not compared: not compared yet: the study stopped inside this round (at 1,000 records)')
    expect(cells).toContain('PROVISIONAL: still in the screen')
  })

  test('without figures yet (read from the run journal): one line with its status and why', () => {
    const partial = studyRecord({
      state: 'partial',
      reason: 'interrupted: 3 of 30 measured run(s) kept',
      kept: { runs: 3, planned: 30 },
      stats: {},
    })
    const [entry] = analyzeStudyRecords([partial]).entries
    expect(entry).toMatchObject({
      shows: 'line',
      line: "PROVISIONAL (3 of 30 runs): settings study 'settings study of --dnabert-batch-size --cuda-streams on 2 GPUs' (study-2-GPUs-dnabert-batch-size-cuda-streams): no figures yet: interrupted: 3 of 30 measured run(s) kept",
    })
  })
})

describe('damaged or missing stats: one line naming the record and the field, never a crash', () => {
  const lineOf = (stats: (s: Record<string, unknown>) => unknown) => {
    const record = withStats(studyRecord(), stats as never)
    const [entry] = analyzeStudyRecords([record]).entries
    if (entry?.shows !== 'line') throw new Error('expected a line')
    return entry.line
  }
  const named =
    "study record 'study-2-GPUs-dnabert-batch-size-cuda-streams' (settings study of --dnabert-batch-size --cuda-streams on 2 GPUs): damaged stats, no table"

  test('a figure of the wrong type', () => {
    const line = lineOf((s) => {
      ;(s.rows as { capacity: { perGpuCount: { productionH: { value: unknown } }[] } | null }[])[2]!.capacity!
        .perGpuCount[0]!.productionH.value = 'fourteen'
    })
    expect(line).toMatch(
      new RegExp(
        `^${named.replace(/[()]/g, '\\$&')}: stats\\.rows\\.2\\.capacity\\.perGpuCount\\.0\\.productionH\\.value: `,
      ),
    )
    expect(line.split('\n')).toHaveLength(1)
  })

  test('a missing field, no rows, no default, a best that is none of the rows', () => {
    expect(lineOf((s) => ({ ...s, rounds: undefined }))).toMatch(/: stats\.rounds: /)
    expect(lineOf((s) => ({ ...s, rows: [] }))).toMatch(/: stats\.rows: /)
    const noDefault = (s: Record<string, unknown>) => ({
      ...s,
      rows: (s.rows as object[]).map((r) => ({ ...r, isDefault: false })),
    })
    expect(lineOf(noDefault)).toContain('stats.rows: must hold exactly one default setting')
    expect(lineOf((s) => ({ ...s, best: 'gone' }))).toContain("stats.best: names 'gone', which is none of the rows")
  })

  test('stats that are no study at all (a record of another shape under the kind)', () => {
    expect(lineOf(() => ({ speedup: 2 }))).toMatch(/^study record .*: damaged stats, no table: stats\.grid: /)
  })

  test('a control character in a grid key is escaped, the line stays one line', () => {
    const line = lineOf((s) => ({ ...s, grid: { ...(s.grid as object), '--bad\nkey': 'not a list' } }))
    expect(line).toContain('stats.grid.--bad\\nkey')
    expect(line.split('\n')).toHaveLength(1)
  })

  test('a failed or skipped study without figures says so with its reason', () => {
    const failed = studyRecord({ state: 'failed', reason: 'the default failed in round 1', stats: {} })
    expect(analyzeStudyRecords([failed]).entries[0]).toMatchObject({
      shows: 'line',
      line: "settings study 'settings study of --dnabert-batch-size --cuda-streams on 2 GPUs' (study-2-GPUs-dnabert-batch-size-cuda-streams): failed: the default failed in round 1: no table",
    })
  })
})

describe('which records', () => {
  test('the newest record of each id, newest first; other kinds not read', () => {
    const older = studyRecord({ createdAt: '2026-11-30T10:00:00.000Z', name: 'older run of the same study' })
    const newer = studyRecord({ createdAt: '2026-12-02T10:00:00.000Z' })
    const other = studyRecord({ id: 'study-1-GPU-cuda-streams', createdAt: '2026-12-01T12:00:00.000Z' })
    const notAStudy = studyRecord({ kind: 'sweep', id: 'sweep-1', createdAt: '2026-12-03T00:00:00.000Z' })
    const { entries } = analyzeStudyRecords([older, other, notAStudy, newer])
    expect(entries.map((e) => [e.recordId, e.createdAt])).toEqual([
      [newer.id, newer.createdAt],
      [other.id, other.createdAt],
    ])
  })

  test('no study record: no entries', () => {
    expect(analyzeStudyRecords([studyRecord({ kind: 'sweep' })]).entries).toEqual([])
  })
})

// Issue 56: flags and switch pairs in the grid, as the study writes them.
describe('a study of flags and switch pairs', () => {
  const flagged = withStats(studyRecord(), (s) => {
    s.grid = {
      '--parallel': [true, false],
      '--persistent-models/--no-persistent-models': [true, false],
      '--dnabert-batch-size': [null, 1024],
    }
    const [def, slower, best] = s.rows
    s.rows = [
      def!,
      { ...best!, label: '--parallel --no-persistent-models', extraArgs: ['--parallel', '--no-persistent-models'] },
      { ...slower!, label: 'no --parallel --persistent-models dnabert-batch-size=1024' },
    ]
    s.best = '--parallel --no-persistent-models'
    s.defaultsUnknown = ['--persistent-models/--no-persistent-models: the default gives neither (why)']
  })
  const e = tableOf(analyzeStudyRecords([flagged]).entries[0])

  test('reads as a table: the labels as written, the grid in words, the pair whose default was not known said', () => {
    expect(e.table.rows.map((r) => r[0])).toEqual([
      'default',
      '--parallel --no-persistent-models (best)',
      'no --parallel --persistent-models dnabert-batch-size=1024',
    ])
    expect(e.table.notes[0]).toBe(
      'grid: --parallel: --parallel, no --parallel; --persistent-models/--no-persistent-models: --persistent-models, --no-persistent-models; --dnabert-batch-size not added, 1024',
    )
    expect(e.table.notes).toContain('--persistent-models/--no-persistent-models: the default gives neither (why)')
  })

  test("a flag setting's capacity record is known by its labels when the study record is gone", () => {
    const of = (id: string, labels: string[]) =>
      sampleResultRecord({ id, kind: 'capacity', stats: { configurations: labels.map((label) => ({ label })) } })
    const records = [
      of('capacity-default', ['1 GPU', '2 GPUs']),
      of('capacity-parallel', ['--parallel, 1 GPU', '--parallel, 2 GPUs']),
      of('capacity-mixed', ['no --parallel dnabert-batch-size=1024, 1 GPU']),
      of('capacity-pair', ['--no-persistent-models w=2, 1 GPU']),
    ]
    const out = withoutStudySettings(records)
    expect(out.records.map((r) => r.id)).toEqual(['capacity-default'])
    expect(out.notes.map((n) => n.split(' (by')[0])).toEqual([
      'capacity-parallel: the capacity answer of setting --parallel',
      'capacity-mixed: the capacity answer of setting no --parallel dnabert-batch-size=1024',
      'capacity-pair: the capacity answer of setting --no-persistent-models w=2',
    ])
  })
})
