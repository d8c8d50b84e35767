import { describe, expect, test } from 'vitest'
import type { StudyRow, StudyStats } from '../../src/study/stats.ts'
import { studyVerdicts } from '../../src/study/verdicts.ts'

const h = (value: number, low: number, high: number) => ({ value, low, high })
const row = (label: string, more: Partial<StudyRow> = {}): StudyRow => ({
  label,
  extraArgs: label === 'default' ? [] : ['--x', label],
  isDefault: label === 'default',
  screening: [],
  outputs: label === 'default' ? null : { equal: true, records: 40, detail: '40 predictions' },
  dropped: null,
  capacity: null,
  flips: [],
  ...more,
})
const capacity = (productionH: ReturnType<typeof h>) => ({
  recordId: 'capacity-x',
  statusText: 'FINAL',
  perGpuCount: [{ gpuCount: 1, productionH, production: 'fail' as const }],
  speedups: [],
  decisions: [],
})
const stats = (rows: StudyRow[], best: string | null): StudyStats => ({
  grid: { '--x': [1, 2] },
  screenedOn: '1 GPU',
  production: 6_000_000,
  rounds: [],
  best,
  rows,
  sameAsDefault: 0,
  stageOptions: [],
  stageOptionsProblem: 'not read',
})

describe('study verdicts', () => {
  test('the best against the default: faster, slower, or not told apart, by their 6 M intervals', () => {
    const judged = (best: ReturnType<typeof h>) =>
      studyVerdicts(
        stats([row('default', { capacity: capacity(h(20, 18, 22)) }), row('2', { capacity: capacity(best) })], '2'),
      ).find((v) => v.id === 'study/best/1')!
    expect(judged(h(10, 9, 11)).verdict).toBe('pass')
    expect(judged(h(10, 9, 11)).detail).toBe("2 10.0 h [9.0, 11.0] against the default's 20.0 h [18.0, 22.0]")
    expect(judged(h(30, 25, 35)).verdict).toBe('fail')
    expect(judged(h(19, 15, 21)).verdict).toBe('inconclusive')
  })

  // Issue 47: study/best/1 read PASS on a winner whose own answer said "the runs cannot support a projection" for every
  // 6 M verdict. Figures the capacity answer refuses judge nothing here: not compared, naming why.
  test('the best against the default from figures either capacity answer refuses: not compared, never PASS', () => {
    const refused = (problems: string) => ({
      ...capacity(h(10, 9, 11)),
      perGpuCount: [
        { gpuCount: 1, productionH: h(10, 9, 11), production: 'undecided' as const, unsupported: problems },
      ],
    })
    const judged = (best: StudyRow['capacity'], reference: StudyRow['capacity']) =>
      studyVerdicts(stats([row('default', { capacity: reference }), row('2', { capacity: best })], '2')).find(
        (v) => v.id === 'study/best/1',
      )!
    const mine = judged(refused('the model misses 1,000 records'), capacity(h(20, 18, 22)))
    expect([mine.verdict, mine.detail]).toEqual([
      'error',
      "not compared: 2's runs cannot support a projection (the model misses 1,000 records)",
    ])
    const theirs = judged(capacity(h(10, 9, 11)), { ...refused('a part negative'), recordId: 'capacity-default' })
    expect(theirs.detail).toBe("not compared: the default's runs cannot support a projection (a part negative)")
    expect(judged(capacity(h(10, 9, 11)), capacity(h(20, 18, 22))).verdict).toBe('pass')
  })

  test('outputs: equal passes, different fails, nothing to compare is an error (no verdict), never a pass', () => {
    const v = studyVerdicts(
      stats(
        [
          row('default'),
          row('same'),
          row('other', { outputs: { equal: false, records: 8, detail: 'scores not close' } }),
          row('blind', { outputs: { equal: null, records: 8, detail: 'no completed run with a predictions file' } }),
        ],
        'same',
      ),
    )
    const of = (label: string) => v.find((x) => x.id === `study/outputs/${label}`)!
    expect([of('same').verdict, of('other').verdict, of('blind').verdict]).toEqual(['pass', 'fail', 'error'])
    expect(of('blind').detail).toBe('at 8 records: no completed run with a predictions file')
    expect(v.find((x) => x.id === 'study/outputs/default')).toBeUndefined()
  })

  // Issue 56: the outputs verdict states the consensus rule it judged by, and the agreement as its value.
  test('outputs: the consensus threshold and the agreement (%) on the verdict', () => {
    const consensus = {
      file: 'prediction_results_highestscore.csv',
      minAgreement: 0.99,
      referenceCount: 40,
      candidateCount: 40,
      common: 40,
      missing: 0,
      extra: 0,
      duplicates: 0,
      sameIds: true,
      agreeing: 39,
      labelAgreement: 0.975,
      scores: { count: 80, maxAbs: 0.2, meanAbs: 0.01, over: 3, overShare: 3 / 80, step: 1e-3 },
    }
    const [v] = studyVerdicts(
      stats([row('default'), row('x', { outputs: { equal: false, records: 40, detail: 'd', consensus } })], null),
    )
    expect(v).toMatchObject({
      id: 'study/outputs/x',
      verdict: 'fail',
      value: 97.5,
      unit: '%',
      threshold: 'the same IDs, consensus labels agreeing at least 0.99 (thresholds study.minConsensusAgreement)',
    })
  })

  test('no setting through the screen: one error naming why each left; a best without an interval is no verdict', () => {
    const none = studyVerdicts(
      stats([row('default'), row('2', { dropped: { round: 1, records: 8, why: 'failed', detail: 'exit 1' } })], null),
    )
    expect(none.find((v) => v.id === 'study/best')).toMatchObject({
      verdict: 'error',
      detail: 'no setting came through the screen (2: failed)',
    })
    const blind = studyVerdicts(stats([row('default', { capacity: capacity(h(20, 18, 22)) }), row('2')], '2'))
    expect(blind.find((v) => v.id === 'study/best/1')).toMatchObject({ verdict: 'error' })
  })
})
