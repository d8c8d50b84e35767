import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { mannWhitney, smallestExactP } from '../../src/measure/mann-whitney.ts'

/** Brute force: every way of choosing which pooled values are "x", the definition the DP must reproduce. */
function bruteForceP(x: readonly number[], y: readonly number[]): number {
  const pooled = [...x, ...y]
  const uOf = (chosen: number[]) => {
    let u = 0
    const others = pooled.filter((_, i) => !chosen.includes(i))
    for (const i of chosen) for (const v of others) u += pooled[i]! > v ? 1 : pooled[i]! === v ? 0.5 : 0
    return u
  }
  const center = (x.length * y.length) / 2
  const observed = Math.abs(mannWhitney(x, y).u - center)
  let extreme = 0
  let total = 0
  const choose = (start: number, chosen: number[]) => {
    if (chosen.length === x.length) {
      total++
      if (Math.abs(uOf(chosen) - center) >= observed - 1e-9) extreme++
      return
    }
    for (let i = start; i < pooled.length; i++) choose(i + 1, [...chosen, i])
  }
  choose(0, [])
  return extreme / total
}

describe('mannWhitney', () => {
  // References from scipy 1.17 mannwhitneyu(x, y, alternative='two-sided', method=..., use_continuity=True).
  test('matches scipy exact p without ties', () => {
    expect(mannWhitney([1, 2, 3, 4], [5, 6, 7, 8])).toMatchObject({ u: 0, method: 'exact', ties: false })
    expect(mannWhitney([1, 2, 3, 4], [5, 6, 7, 8]).p).toBeCloseTo(0.02857142857142857, 12)
    const r = mannWhitney([1.1, 2.5, 3.3, 4.8, 7.2], [2.0, 5.5, 6.1, 8.8, 9.4, 10.2])
    expect(r.u).toBe(6)
    expect(r.p).toBeCloseTo(0.12554112554112554, 12)
  })

  test('with ties, small samples get the exact p of the permutation distribution given the ties', () => {
    // Enumerating all 462 splits gives P(U <= 3.5) = P(U >= 26.5) = 11/462, so p = 22/462. scipy's method='exact'
    // reports 24/462 here because it ignores ties (its docs say so); its permutation_test agrees with 22/462.
    const r = mannWhitney([3, 3, 4, 5, 5], [4, 5, 6, 6, 7, 8])
    expect(r).toMatchObject({ u: 3.5, method: 'exact', ties: true })
    expect(r.p).toBeCloseTo(22 / 462, 12)
  })

  test('large samples with ties use the tie-corrected normal approximation (matches scipy asymptotic)', () => {
    const x = [
      10.3, 10.8, 10.3, 8.7, 10.9, 10.4, 9.5, 10.6, 10.4, 10.3, 10, 10.5, 9.3, 9.8, 9.5, 10.6, 10, 9.7, 9.2, 9.7,
    ].concat([10, 9.7, 11.3, 11, 7.3, 8.1, 9.8, 9.6, 10.2, 10.2])
    const y = [
      12.6, 9.4, 10.1, 12.5, 11.1, 11.2, 10, 8.9, 10.7, 10.6, 9.3, 9.8, 10.4, 9.6, 10.4, 10.6, 10.5, 10,
    ].concat([11.1, 11.4, 10.8, 9.7, 11.2, 10, 11.4, 9.4, 11.4, 10.5, 9.3, 10.2, 10.6, 10.8, 9.5, 9.4, 10.7])
    const r = mannWhitney(x, y)
    expect(r).toMatchObject({ u: 374.5, method: 'normal-tie-corrected' })
    // simple-statistics' erf is good to ~1e-7, so agreement to 1e-6 is the right expectation.
    expect(r.p).toBeCloseTo(0.04811627885452071, 6)
  })

  test('the exact DP equals brute-force enumeration, ties included', () => {
    const value = fc.integer({ min: 0, max: 6 })
    fc.assert(
      fc.property(
        fc.array(value, { minLength: 1, maxLength: 6 }),
        fc.array(value, { minLength: 1, maxLength: 6 }),
        (x, y) => {
          expect(mannWhitney(x, y).p).toBeCloseTo(bruteForceP(x, y), 10)
        },
      ),
      { numRuns: 150 },
    )
  })

  test('swapping the samples keeps p and mirrors U', () => {
    const sample = fc.array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 30 })
    fc.assert(
      fc.property(sample, sample, (x, y) => {
        const a = mannWhitney(x, y)
        const b = mannWhitney(y, x)
        expect(b.p).toBeCloseTo(a.p, 12)
        expect(a.u + b.u).toBeCloseTo(x.length * y.length, 9)
      }),
    )
  })

  test('the normal approximation is close to the exact p at 20 + 20 without ties', () => {
    const sample = fc.uniqueArray(fc.integer({ min: 0, max: 10_000 }), { minLength: 40, maxLength: 40 })
    fc.assert(
      fc.property(sample, (values) => {
        const x = values.slice(0, 20)
        const y = values.slice(20).map((v) => v + 1500)
        const exact = mannWhitney(x, y).p
        const normal = mannWhitney(x, y, { exactMaxTotal: 0 }).p
        expect(Math.abs(exact - normal)).toBeLessThan(0.01)
      }),
      { numRuns: 40 },
    )
  })

  test('p is in (0, 1] and all-equal samples give p = 1', () => {
    expect(mannWhitney([2, 2, 2], [2, 2]).p).toBe(1)
    expect(mannWhitney(Array(30).fill(1), Array(30).fill(1)).p).toBe(1)
  })

  test('smallestExactP: 3 + 3 cannot reach 0.05, 4 + 4 can', () => {
    expect(smallestExactP(3, 3)).toBeCloseTo(0.1, 12)
    expect(smallestExactP(4, 4)).toBeCloseTo(2 / 70, 12)
  })
})
