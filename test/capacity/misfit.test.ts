import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { analyzeCapacity, PLAIN_ANALYSIS } from '../../src/capacity/analyze.ts'
import { widenedEstimate } from '../../src/capacity/misfit.ts'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import {
  CURVED,
  FILLING,
  LINEAR,
  plannedMeasurements,
  syntheticInput,
  trueWallMs,
} from './support/synthetic-capacity.ts'

const PRODUCTION = DEFAULT_THRESHOLDS.perf01.productionSequences
const fitted = (sizes: number[], target = FILLING, seed = 'misfit', misfit = true) => {
  const measured = plannedMeasurements(target, sizes, 3, createRandomSource(seed))
  return analyzeCapacity(
    measured,
    sizes.map((s) => syntheticInput(s, 45_000)),
    DEFAULT_THRESHOLDS,
    [],
    { ...PLAIN_ANALYSIS, misfit },
  ).stats.configurations[0]!
}
const at6M = (c: ReturnType<typeof fitted>) => c.at.find((a) => a.sequences === PRODUCTION)!.wallMs

describe('the size model misfit (leave the largest size out)', () => {
  test('two sizes: none can be seen, and the intervals are the noise ones', () => {
    const c = fitted([3_125, 12_500])
    expect(c.misfit).toBeNull()
    expect(at6M(c)).toEqual(at6M(fitted([3_125, 12_500], FILLING, 'misfit', false)))
  })

  test('a cost per sequence that falls with size: the refit from the smaller sizes overshoots the largest, and the 6 M interval widens towards the truth', () => {
    const c = fitted([3_125, 6_250, 12_500])
    const noiseOnly = at6M(fitted([3_125, 6_250, 12_500], FILLING, 'misfit', false))
    expect(c.misfit!.source).toBe('leave-one-out')
    expect(c.misfit!.leftOut).toBe(12_500)
    expect(c.misfit!.predictedMs).toBeGreaterThan(c.misfit!.measuredMs)
    expect(c.misfit!.growthErrorPct).toBeLessThan(-5)
    const truth = trueWallMs(FILLING, PRODUCTION)
    // Noise alone puts the truth far outside; the misfit brings the low end towards it (the held-out run's own misfit,
    // farther out, does the rest: checked-analysis.test.ts, held-out-study.test.ts).
    expect(noiseOnly.ci!.low).toBeGreaterThan(truth)
    expect(noiseOnly.ci!.low - at6M(c).ci!.low).toBeGreaterThan(0.1 * (noiseOnly.ci!.low - truth))
    expect(at6M(c).ci!.high).toBeGreaterThan(noiseOnly.ci!.high)
    expect(at6M(c).estimate).toBe(noiseOnly.estimate)
  })

  test('a true line: its misfit is the noise of extrapolating two sizes (tens of percent of one step), and its interval holds the truth', () => {
    const c = fitted([1_000, 2_000, 4_000], LINEAR)
    expect(Math.abs(c.misfit!.growthErrorPct)).toBeLessThan(35)
    const truth = trueWallMs(LINEAR, PRODUCTION)
    expect(at6M(c).ci!.low).toBeLessThanOrEqual(truth)
    expect(at6M(c).ci!.high).toBeGreaterThanOrEqual(truth)
  })

  test('the measured sizes keep their intervals: only sizes beyond the largest one widen', () => {
    const c = fitted([1_000, 2_000, 4_000], CURVED)
    const plain = fitted([1_000, 2_000, 4_000], CURVED, 'misfit', false)
    expect(c.at[0]).toEqual(plain.at[0])
  })
})

describe('widenedEstimate', () => {
  test('property: the interval only widens, by at most the misfit share of the growth, around the same estimate', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 1e8, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: -200, max: 200, noNaN: true }),
        (estimate, lowShare, highShare, largestShare, pct) => {
          const ci = { low: estimate * (1 - lowShare), high: estimate * (1 + highShare), level: 0.95 }
          const largestMs = estimate * largestShare
          const misfit = { leftOut: 1, fittedSizes: [], predictedMs: 1, measuredMs: 1, growthErrorPct: pct }
          const w = widenedEstimate({ estimate, ci }, largestMs, misfit)
          const extra = (Math.abs(pct) / 100) * (estimate - largestMs)
          expect(w.estimate).toBe(estimate)
          expect(w.ci!.low).toBeLessThanOrEqual(ci.low + 1e-6 * estimate)
          expect(w.ci!.high).toBeGreaterThanOrEqual(ci.high - 1e-6 * estimate)
          expect(w.ci!.low).toBeGreaterThanOrEqual(0)
          expect(w.ci!.high - ci.high).toBeLessThanOrEqual(extra + 1e-6 * estimate)
        },
      ),
      { seed: 48, numRuns: 300 },
    )
  })

  test('no interval stays none', () => {
    const misfit = { leftOut: 1, fittedSizes: [], predictedMs: 1, measuredMs: 1, growthErrorPct: 50 }
    expect(widenedEstimate({ estimate: 5, ci: null }, 1, misfit)).toEqual({ estimate: 5, ci: null })
  })
})
