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
