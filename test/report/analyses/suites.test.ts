// Suite lines with `error` verdicts: counted, ranked right after fail, and shown with their detail (they have no figure).
import { describe, expect, test } from 'vitest'
import { suiteLine, worstVerdict } from '../../../src/report/analyses/suites.ts'
import type { Verdict } from '../../../src/results/schema/index.ts'
import { sampleResultRecord } from '../../support/result-records.ts'
import { studyRecord, withStats } from '../support/study.ts'

const base: Verdict = {
  id: 'x',
  title: 'x',
  verdict: 'pass',
  value: 1,
  unit: 'x',
  ci: null,
  threshold: null,
  detail: 'measured',
  stage: null,
  gpu: null,
}
const v = (verdict: Verdict['verdict'], detail = 'measured'): Verdict => ({ ...base, id: verdict, verdict, detail })

describe('suite lines with error verdicts', () => {
  test('error ranks after fail and before every other state', () => {
    expect(worstVerdict([v('fail'), v('error')])?.verdict).toBe('fail')
    expect(worstVerdict([v('pass'), v('error'), v('inconclusive'), v('flag'), v('skipped')])?.verdict).toBe('error')
  })

  test("a completed record whose worst verdict is error shows the error's detail as its reason, and counts it", () => {
    const record = sampleResultRecord({
      kind: 'sweep',
      verdicts: [
        v('pass'),
        { ...v('error', 'no setting completed a run; failed: batch 256 (failed: exit code 1)'), value: null },
      ],
    })
    expect(suiteLine(record)).toMatchObject({
      verdict: 'error',
      keyFigure: null,
      reason: 'no setting completed a run; failed: batch 256 (failed: exit code 1)',
      counts: { pass: 1, error: 1, fail: 0 },
    })
  })
})

// Issue 47: with its stats cut short, a study record still printed `PASS study` on the console.
describe('a study record whose stats cannot be read', () => {
  test('its line is an error naming the damage, none of its verdicts counted; a sound one reads as its verdicts', () => {
    const sound = suiteLine(studyRecord())
    expect(sound.verdict).not.toBe('error')
    const damaged = suiteLine(withStats(studyRecord(), (s) => ({ ...s, best: 7 })))
    expect(damaged).toMatchObject({ verdict: 'error', keyFigure: null })
    expect(damaged.reason).toMatch(/stats\.best/)
    expect(damaged.counts).toMatchObject({ pass: 0, fail: 0, error: 1 })
  })
})
