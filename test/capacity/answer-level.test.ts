// Issue 44: one console showed the same configuration at `[95% CI]` and at `[99.17% CI]` with nothing to say why.
import fc from 'fast-check'
import { expect, test } from 'vitest'
import { ciText } from '../../src/capacity/answer-level.ts'
import { DECISION } from '../../src/config/capacity-targets.ts'
import { lookLevel } from '../../src/measure/index.ts'

test("the decided design's level names its six looks; one judged once says so", () => {
  expect(ciText(lookLevel(DECISION.alpha, DECISION.maxLooks), DECISION.maxLooks)).toBe(
    '99.17% CI, Bonferroni over 6 looks',
  )
  expect(ciText(0.95, 1)).toBe('95% CI, judged once')
})

test('property: the level to two decimals, and why it is that level, for any number of looks', () => {
  fc.assert(
    fc.property(fc.integer({ min: 1, max: 50 }), (looks) => {
      const level = lookLevel(DECISION.alpha, looks)
      const m = /^(\d+(?:\.\d+)?)% CI, (.+)$/.exec(ciText(level, looks))
      expect(m).not.toBeNull()
      expect(Math.abs(Number(m![1]) - level * 100)).toBeLessThanOrEqual(0.005)
      expect(m![2]).toBe(looks > 1 ? `Bonferroni over ${looks} looks` : 'judged once')
    }),
  )
})
