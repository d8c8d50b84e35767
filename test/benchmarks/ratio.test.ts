// The ratio every CPU-side bench measures (benchmarks/support/ratio.ts): one of the two figures its verdict against
// this machine reads (benchmarks/support/baseline/verdict.ts), printed with every run.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { formatRatios, pairRatios, summarizeRatios } from '../../benchmarks/support/ratio.ts'

/** Positive costs of one arm, and a second arm of the same length. */
const cost = fc.double({ min: 1e-3, max: 1e6, noNaN: true })
const pairs = fc
  .integer({ min: 1, max: 40 })
  .chain((n) =>
    fc.tuple(fc.array(cost, { minLength: n, maxLength: n }), fc.array(cost, { minLength: n, maxLength: n })),
  )
/** A machine speed factor: every cost of the run multiplied by it. */
const speed = fc.double({ min: 0.05, max: 20, noNaN: true })

describe('summarizeRatios', () => {
  test('a machine k times slower or faster for both arms gets the same ratio (to rounding)', () => {
    fc.assert(
      fc.property(pairs, speed, ([subject, calibration], k) => {
        const here = summarizeRatios(subject, calibration)
        const there = summarizeRatios(
          subject.map((c) => c * k),
          calibration.map((c) => c * k),
        )
        expect(there.ratio / here.ratio).toBeCloseTo(1, 9)
      }),
    )
  })

  test('a subject s times slower in every pair multiplies the ratio by s', () => {
    fc.assert(
      fc.property(pairs, fc.double({ min: 1, max: 10, noNaN: true }), ([subject, calibration], s) => {
        const before = summarizeRatios(subject, calibration)
        const after = summarizeRatios(
          subject.map((c) => c * s),
          calibration,
        )
        expect(after.ratio / before.ratio).toBeCloseTo(s, 6)
      }),
    )
  })

  test('the ratio is the median of the pair ratios, within their range', () => {
    fc.assert(
      fc.property(pairs, ([subject, calibration]) => {
        const j = summarizeRatios(subject, calibration)
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
          const j = summarizeRatios(hit, calibration)
          expect(j.ratio).toBeGreaterThanOrEqual(Math.min(...clean))
          expect(j.ratio).toBeLessThanOrEqual(Math.max(...clean))
        },
      ),
    )
  })
})

describe('pairRatios and the inputs', () => {
  test('arms of different lengths, no pairs, or a cost that is not a positive number are refused, naming it', () => {
    expect(() => pairRatios([1, 2], [1])).toThrow(/one calibration cost per subject cost, got 2 and 1/)
    expect(() => pairRatios([], [])).toThrow(/got 0 and 0/)
    expect(() => pairRatios([1, 0], [1, 1])).toThrow(/subject cost of pair 1 must be a finite number > 0, got 0/)
    expect(() => pairRatios([1], [Number.NaN])).toThrow(/calibration cost of pair 0/)
  })

  test('the ratio reads as one line: the median and the pairs spread', () => {
    expect(formatRatios(summarizeRatios([2, 2.2, 1.8], [1, 1, 1]))).toBe('ratio 2.00 (pairs 1.80-2.20, n=3)')
  })
})
