import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { ksDistance } from '../../src/input/ks.ts'

/** The definition, brute force: the largest |F_a(x) - F_b(x)| over every observed x. */
function bruteForce(a: number[], b: number[]): number {
  const cdf = (xs: number[], x: number) => xs.filter((v) => v <= x).length / xs.length
  return Math.max(...[...a, ...b].map((x) => Math.abs(cdf(a, x) - cdf(b, x))))
}
const sample = fc.array(fc.integer({ min: 0, max: 30 }), { minLength: 1, maxLength: 60 })
const sorted = (xs: number[]) => [...xs].sort((x, y) => x - y)

describe('ksDistance', () => {
  test('equals the brute-force supremum, ties included', () => {
    fc.assert(
      fc.property(sample, sample, (a, b) => {
        expect(ksDistance(sorted(a), sorted(b))).toBeCloseTo(bruteForce(a, b), 12)
      }),
    )
  })

  test('is symmetric, in [0, 1], and 0 for a sample against itself', () => {
    fc.assert(
      fc.property(sample, sample, (a, b) => {
        const d = ksDistance(sorted(a), sorted(b))
        expect(d).toBe(ksDistance(sorted(b), sorted(a)))
        expect(d >= 0 && d <= 1).toBe(true)
        expect(ksDistance(sorted(a), sorted(a))).toBe(0)
      }),
    )
  })

  test('is 1 for disjoint ranges and rejects an empty sample', () => {
    expect(ksDistance([1, 2], [3, 4])).toBe(1)
    expect(() => ksDistance([], [1])).toThrow(/non-empty/)
  })
})
