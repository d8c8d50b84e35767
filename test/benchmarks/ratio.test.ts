// The ratio judgement every CPU-side bench passes or fails on (benchmarks/support/ratio.ts): what makes it fit for
// "passes on any reasonable machine unless something regressed".
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { formatJudgement, judgeRatio, pairRatios } from '../../benchmarks/support/ratio.ts'

/** Positive costs of one arm, and a second arm of the same length. */
const cost = fc.double({ min: 1e-3, max: 1e6, noNaN: true })
const pairs = fc
  .integer({ min: 1, max: 40 })
  .chain((n) =>
    fc.tuple(fc.array(cost, { minLength: n, maxLength: n }), fc.array(cost, { minLength: n, maxLength: n })),
  )
const limit = fc.double({ min: 1e-3, max: 1e3, noNaN: true })
/** A machine speed factor: every cost of the run multiplied by it. */
const speed = fc.double({ min: 0.05, max: 20, noNaN: true })

describe('judgeRatio', () => {
  test('a machine k times slower or faster for both arms gets the same judgement (to rounding)', () => {
    fc.assert(
      fc.property(pairs, limit, speed, ([subject, calibration], max, k) => {
        const here = judgeRatio(subject, calibration, max)
        const there = judgeRatio(
          subject.map((c) => c * k),
          calibration.map((c) => c * k),
          max,
        )
        expect(there.ratio).toBeCloseTo(here.ratio, 6)
        if (Math.abs(here.ratio - max) > 1e-9 * max) expect(there.verdict).toBe(here.verdict)
      }),
    )
  })

  test('a subject s times slower in every pair multiplies the ratio by s', () => {
    fc.assert(
      fc.property(pairs, limit, fc.double({ min: 1, max: 10, noNaN: true }), ([subject, calibration], max, s) => {
        const before = judgeRatio(subject, calibration, max)
        const after = judgeRatio(
          subject.map((c) => c * s),
          calibration,
          max,
        )
        expect(after.ratio / before.ratio).toBeCloseTo(s, 6)
      }),
    )
  })

  test('the ratio is the median of the pair ratios: within their range, pass exactly when at most the limit', () => {
    fc.assert(
      fc.property(pairs, limit, ([subject, calibration], max) => {
        const j = judgeRatio(subject, calibration, max)
        const ratios = pairRatios(subject, calibration).sort((a, b) => a - b)
        expect(j.pairs).toBe(ratios.length)
        expect(j.lowestRatio).toBe(ratios[0])
        expect(j.highestRatio).toBe(ratios.at(-1))
        expect(j.ratio).toBeGreaterThanOrEqual(j.lowestRatio)
        expect(j.ratio).toBeLessThanOrEqual(j.highestRatio)
        const below = ratios.filter((r) => r < j.ratio).length
        const above = ratios.filter((r) => r > j.ratio).length
        expect(below).toBeLessThanOrEqual(ratios.length / 2)
        expect(above).toBeLessThanOrEqual(ratios.length / 2)
        expect(j.verdict).toBe(j.ratio <= max ? 'pass' : 'fail')
      }),
    )
  })

  test('fewer than half the pairs disturbed, however far, cannot move the ratio out of the undisturbed range', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 21 }),
        fc.double({ min: 0.5, max: 2, noNaN: true }),
        fc.double({ min: 2, max: 1e3, noNaN: true }),
        (n, base, outlier) => {
          const calibration = Array.from({ length: n }, () => 100)
          const subject = calibration.map((c, i) => c * base * (1 + (i % 3) * 0.01))
          const disturbed = Math.floor((n - 1) / 2)
          const hit = subject.map((c, i) => (i < disturbed ? c * outlier : c))
          const clean = pairRatios(subject.slice(disturbed), calibration.slice(disturbed))
          const j = judgeRatio(hit, calibration, 10)
          expect(j.ratio).toBeGreaterThanOrEqual(Math.min(...clean))
          expect(j.ratio).toBeLessThanOrEqual(Math.max(...clean))
        },
      ),
    )
  })

  test('a planted 30% slowdown of a subject at 1.2 against a limit of 1.4 fails; the subject as it was passes', () => {
    const calibration = [100, 104, 98, 101, 99]
    const subject = [120, 126, 117, 122, 118]
    expect(judgeRatio(subject, calibration, 1.4).verdict).toBe('pass')
    expect(
      judgeRatio(
        subject.map((c) => c * 1.3),
        calibration,
        1.4,
      ).verdict,
    ).toBe('fail')
  })
})

describe('pairRatios and the inputs', () => {
  test('arms of different lengths, no pairs, or a cost that is not a positive number are refused, naming it', () => {
    expect(() => pairRatios([1, 2], [1])).toThrow(/one calibration cost per subject cost, got 2 and 1/)
    expect(() => pairRatios([], [])).toThrow(/got 0 and 0/)
    expect(() => pairRatios([1, 0], [1, 1])).toThrow(/subject cost of pair 1 must be a finite number > 0, got 0/)
    expect(() => pairRatios([1], [Number.NaN])).toThrow(/calibration cost of pair 0/)
    expect(() => judgeRatio([1], [1], 0)).toThrow(/limit must be > 0/)
  })

  test('the judgement reads as one line: ratio, the pairs spread, the limit and the verdict', () => {
    expect(formatJudgement(judgeRatio([2, 2.2, 1.8], [1, 1, 1], 2.5))).toBe(
      'ratio 2.00 (pairs 1.80-2.20, n=3), limit 2.50: pass',
    )
  })
})
