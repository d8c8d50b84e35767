import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  chanceOfDeciding,
  createRandomSource,
  decideInterval,
  lookLevel,
  MeasureInputError,
  twoSidedZ,
} from '../../src/measure/index.ts'
import { normal } from '../../src/measure/size-draws.ts'

const interval = fc
  .tuple(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.double({ min: 0, max: 50, noNaN: true }))
  .map(([low, width]) => ({ low, high: low + width }))

describe('lookLevel and twoSidedZ', () => {
  test('K looks at 1 - alpha / K: one look is the plain interval, four looks at alpha 0.05 are z = 2.50', () => {
    expect(lookLevel(0.05, 1)).toBeCloseTo(0.95, 12)
    expect(twoSidedZ(lookLevel(0.05, 1))).toBeCloseTo(1.96, 2)
    expect(twoSidedZ(lookLevel(0.05, 4))).toBeCloseTo(2.5, 2)
    expect(() => lookLevel(0.05, 0)).toThrow(MeasureInputError)
    expect(() => lookLevel(1.5, 2)).toThrow(MeasureInputError)
  })

  test('error over K looks of a running mean stays under alpha when the truth sits on the threshold', () => {
    // Each trial: up to K looks at the mean of 3 more N(0, 1) values each; "decided" where a look's interval at
    // lookLevel leaves 0. The union bound says at most alpha; peeking at 95% each time gives far more.
    const random = createRandomSource('looks')
    const trials = 4_000
    const looks = 6
    const count = (level: number) => {
      const z = twoSidedZ(level)
      let wrong = 0
      for (let t = 0; t < trials; t++) {
        let sum = 0
        for (let k = 1; k <= looks; k++) {
          for (let i = 0; i < 3; i++) sum += normal(random)
          const n = 3 * k
          if (Math.abs(sum / n) > z / Math.sqrt(n)) {
            wrong++
            break
          }
        }
      }
      return wrong / trials
    }
    expect(count(lookLevel(0.05, looks))).toBeLessThanOrEqual(0.05)
    expect(count(0.95)).toBeGreaterThan(0.1)
  })
})

describe('decideInterval', () => {
  test('pass, fail, at threshold, undecided: where the interval sits', () => {
    expect(decideInterval({ low: 8, high: 9.9 }, 10, 'at-most', 0.05)).toBe('pass')
    expect(decideInterval({ low: 8, high: 10 }, 10, 'at-most', 0.05)).toBe('pass')
    expect(decideInterval({ low: 10.1, high: 14 }, 10, 'at-most', 0.05)).toBe('fail')
    expect(decideInterval({ low: 9.6, high: 10.4 }, 10, 'at-most', 0.05)).toBe('at-threshold')
    expect(decideInterval({ low: 9, high: 11 }, 10, 'at-most', 0.05)).toBe('undecided')
    expect(decideInterval({ low: 1.95, high: 2.3 }, 1.9, 'at-least', 0.05)).toBe('pass')
    expect(decideInterval({ low: 0.75, high: 1.08 }, 1.9, 'at-least', 0.05)).toBe('fail')
    expect(() => decideInterval({ low: 2, high: 1 }, 1.9, 'at-least', 0.05)).toThrow(MeasureInputError)
  })

  test('property: the state says where the interval is, and the two directions mirror each other', () => {
    fc.assert(
      fc.property(interval, fc.double({ min: 0.5, max: 80, noNaN: true }), (ci, threshold) => {
        const most = decideInterval(ci, threshold, 'at-most', 0.05)
        const least = decideInterval(ci, threshold, 'at-least', 0.05)
        if (most === 'pass') expect(ci.high).toBeLessThanOrEqual(threshold)
        if (most === 'fail') expect(ci.low).toBeGreaterThan(threshold)
        if (most === 'at-threshold') {
          expect(ci.low).toBeGreaterThanOrEqual(threshold * 0.95)
          expect(ci.high).toBeLessThanOrEqual(threshold * 1.05)
        }
        // An interval strictly on one side passes one direction and fails the other.
        if (ci.low > threshold) expect([most, least]).toEqual(['fail', 'pass'])
        if (ci.high < threshold) expect([most, least]).toEqual(['pass', 'fail'])
        if (ci.low < threshold && ci.high > threshold) expect(most).toBe(least)
      }),
    )
  })
})

describe('chanceOfDeciding', () => {
  const base = { threshold: 10, margin: 0.05, z: 2.64 }

  test('far from the threshold a small narrowing decides; at it, an interval wider than the zone never does', () => {
    expect(chanceOfDeciding({ ...base, estimate: 16, halfWidthNow: 5, halfWidthAfter: 3 })).toBeGreaterThan(0.95)
    expect(chanceOfDeciding({ ...base, estimate: 10, halfWidthNow: 5, halfWidthAfter: 4 })).toBeLessThan(0.2)
    expect(chanceOfDeciding({ ...base, estimate: 14, halfWidthNow: 3, halfWidthAfter: 3 })).toBe(1)
    expect(chanceOfDeciding({ ...base, estimate: 12, halfWidthNow: 3, halfWidthAfter: 3 })).toBe(0)
    expect(chanceOfDeciding({ ...base, estimate: 14, halfWidthNow: 5, halfWidthAfter: Infinity })).toBe(0)
    expect(() => chanceOfDeciding({ ...base, estimate: 14, halfWidthNow: 1, halfWidthAfter: 2 })).toThrow(
      MeasureInputError,
    )
  })

  test('property: the chance is what a simulation of the estimate after the runs gives (within 3 points)', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 7, max: 13, noNaN: true }),
        fc.double({ min: 0.2, max: 4, noNaN: true }),
        fc.double({ min: 0.05, max: 0.95, noNaN: true }),
        fc.string(),
        (estimate, halfWidthNow, shrink, seed) => {
          const halfWidthAfter = halfWidthNow * shrink
          const o = { ...base, estimate, halfWidthNow, halfWidthAfter }
          const random = createRandomSource(seed)
          const sd = Math.sqrt(halfWidthNow ** 2 - halfWidthAfter ** 2) / base.z
          const n = 3_000
          let decided = 0
          for (let i = 0; i < n; i++) {
            const e = estimate + sd * normal(random)
            const state = decideInterval({ low: e - halfWidthAfter, high: e + halfWidthAfter }, 10, 'at-most', 0.05)
            if (state !== 'undecided') decided++
          }
          expect(Math.abs(chanceOfDeciding(o) - decided / n)).toBeLessThan(0.03)
        },
      ),
      { numRuns: 40 },
    )
  })
})
