import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import {
  bestCut,
  createEnergyScratch,
  energyProfile,
  permutationPValue,
} from '../../src/measure/change-points-energy.ts'
import { createRandomSource } from '../../src/measure/rng.ts'

/** Matteson & James's Q for x split at t, straight from the definition (all pairs, alpha = 1). */
function bruteForceQ(x: readonly number[], t: number): number {
  const left = x.slice(0, t)
  const right = x.slice(t)
  const sumPairs = (a: readonly number[], b: readonly number[]) => {
    let s = 0
    for (const u of a) for (const v of b) s += Math.abs(u - v)
    return s
  }
  const n = left.length
  const k = right.length
  const e =
    (2 * sumPairs(left, right)) / (n * k) -
    sumPairs(left, left) / (n * (n - 1)) -
    sumPairs(right, right) / (k * (k - 1))
  return ((n * k) / (n + k)) * e
}

const segment = fc.array(fc.double({ min: -1e3, max: 1e3, noNaN: true }), { minLength: 4, maxLength: 60 })

describe('energyProfile', () => {
  test('matches the definition at every allowed split', () => {
    fc.assert(
      fc.property(segment, (x) => {
        const cuts = Int32Array.from({ length: x.length - 3 }, (_, i) => i + 2)
        const scratch = createEnergyScratch(x.length)
        energyProfile(Float64Array.from(x), x.length, cuts, scratch)
        const scale = Math.max(1, ...x.map(Math.abs))
        cuts.forEach((t, c) => {
          expect(Math.abs((scratch.profile[c] as number) - bruteForceQ(x, t))).toBeLessThan(1e-9 * scale * x.length)
        })
      }),
    )
  })

  test('peaks at a clean step', () => {
    const x = Float64Array.from([1, 1.1, 0.9, 1, 1.05, 5, 5.1, 4.9, 5, 5.05])
    const cuts = Int32Array.from([2, 3, 4, 5, 6, 7, 8])
    const scratch = createEnergyScratch(x.length)
    energyProfile(x, x.length, cuts, scratch)
    expect(cuts[bestCut(scratch, cuts.length).cut]).toBe(5)
  })
})

describe('permutationPValue', () => {
  const test5 = { permutations: 199, alpha: 0.05 }

  test('a constant segment has p = 1: every shuffle ties the observed statistic', () => {
    const x = new Float64Array(20).fill(3)
    const cuts = Int32Array.from({ length: 15 }, (_, i) => i + 3)
    const scratch = createEnergyScratch(20)
    energyProfile(x, 20, cuts, scratch)
    const { q } = bestCut(scratch, cuts.length)
    expect(permutationPValue(x, 20, cuts, q, { ...test5, random: createRandomSource('c') }, scratch)).toBe(1)
  })

  test('a step no shuffle can match has the smallest p, 1 / (permutations + 1)', () => {
    const x = Float64Array.from({ length: 40 }, (_, i) => (i < 20 ? 1 : 2) + 0.001 * Math.sin(i))
    const cuts = Int32Array.from({ length: 35 }, (_, i) => i + 3)
    const scratch = createEnergyScratch(40)
    energyProfile(x, 40, cuts, scratch)
    const { q } = bestCut(scratch, cuts.length)
    expect(permutationPValue(x, 40, cuts, q, { ...test5, random: createRandomSource('s') }, scratch)).toBe(1 / 200)
  })

  test('p is in (0, 1], and stopping early never changes the decision nor a p below alpha', () => {
    fc.assert(
      fc.property(segment, fc.integer(), (values, seed) => {
        const m = values.length
        const x = Float64Array.from(values)
        const cuts = Int32Array.from({ length: m - 3 }, (_, i) => i + 2)
        const scratch = createEnergyScratch(m)
        energyProfile(x, m, cuts, scratch)
        const { q } = bestCut(scratch, cuts.length)
        const sequential = permutationPValue(x, m, cuts, q, { ...test5, random: createRandomSource(seed) }, scratch)
        // alpha = 1 - 1e-9 never stops early: the full run over the same stream.
        const full = permutationPValue(
          x,
          m,
          cuts,
          q,
          { ...test5, alpha: 1 - 1e-9, random: createRandomSource(seed) },
          scratch,
        )
        expect(sequential).toBeGreaterThan(0)
        expect(sequential).toBeLessThanOrEqual(1)
        expect(sequential < 0.05).toBe(full < 0.05)
        if (full < 0.05) expect(sequential).toBe(full)
      }),
      { numRuns: 60 },
    )
  })

  test('at the boundary (exactly 9 of 199 shuffles reach the observed Q) a stop still returns p >= alpha', () => {
    fc.assert(
      fc.property(fc.integer(), (seed) => {
        const x = Float64Array.from({ length: 12 }, (_, i) => Math.sin(i * 1.7) + i / 12)
        const cuts = Int32Array.from([3, 4, 5, 6, 7, 8, 9])
        const scratch = createEnergyScratch(12)
        const pAt = (observed: number, alpha: number) =>
          permutationPValue(
            x,
            12,
            cuts,
            observed,
            { permutations: 199, alpha, random: createRandomSource(seed) },
            scratch,
          )
        // Bisect for an observed Q that exactly 9 of the full run's 199 maxima reach: full p = 10 / 200 = alpha.
        let low = 0
        let high = 100
        for (let i = 0; i < 80 && pAt((low + high) / 2, 1 - 1e-9) !== 10 / 200; i++) {
          if (pAt((low + high) / 2, 1 - 1e-9) > 10 / 200) low = (low + high) / 2
          else high = (low + high) / 2
        }
        const observed = (low + high) / 2
        fc.pre(pAt(observed, 1 - 1e-9) === 10 / 200)
        expect(pAt(observed, 0.05)).toBeGreaterThanOrEqual(0.05)
      }),
      { numRuns: 20 },
    )
  })
})
