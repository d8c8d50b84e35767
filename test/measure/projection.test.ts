import fc from 'fast-check'
import { linearRegression } from 'simple-statistics'
import { describe, expect, test } from 'vitest'
import { fitLine, fitProjection, type ProgressEvent } from '../../src/measure/projection.ts'
import { createRandomSource, type RandomSource } from '../../src/measure/rng.ts'
import { seeded, standardNormal } from './support/simulate.ts'

/**
 * A recorded-like series: `loadMs` before the first batch, then batches of `batchSize` sequences at `ratePerSecond`
 * with 5% jitter per batch; the first `slowBatches` batches take 3x as long (warm-up). The true fixed cost, as the
 * steady-state line sees it, is loadMs plus the warm-up excess.
 */
function series(random: RandomSource, batches: number, slowBatches: number) {
  const loadMs = 90_000
  const ratePerSecond = 300
  const batchSize = 256
  const batchMs = (batchSize / ratePerSecond) * 1000
  const events: ProgressEvent[] = []
  let tMs = loadMs
  for (let i = 0; i < batches; i++) {
    tMs += batchMs * (i < slowBatches ? 3 : 1) * (1 + 0.05 * standardNormal(random))
    events.push({ tMs, done: (i + 1) * batchSize })
  }
  return { events, fixedMs: loadMs + slowBatches * 2 * batchMs, ratePerSecond }
}

describe('fitLine', () => {
  test('agrees with simple-statistics linearRegression', () => {
    const point = fc.tuple(fc.integer({ min: 0, max: 1e6 }), fc.integer({ min: 0, max: 1e7 }))
    fc.assert(
      fc.property(fc.uniqueArray(point, { minLength: 2, maxLength: 50, selector: (p) => p[0] }), (points) => {
        const { m, b } = linearRegression(points)
        const fit = fitLine(
          points.map((p) => p[0]),
          points.map((p) => p[1]),
        )
        expect(fit.msPerSequence).toBeCloseTo(m, 6)
        expect(fit.fixedMs).toBeCloseTo(b, 3)
      }),
    )
  })
})

describe('fitProjection', () => {
  test('recovers a known fixed cost and rate within 2%', () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const truth = series(seeded(`projection/${seed}`), 400, 5)
        const model = fitProjection(truth.events, { resamples: 200, random: createRandomSource(seed) })
        expect(Math.abs(model.fixedMs.estimate / truth.fixedMs - 1)).toBeLessThan(0.02)
        expect(Math.abs(model.ratePerSecond.estimate / truth.ratePerSecond - 1)).toBeLessThan(0.02)
      }),
      { numRuns: 25 },
    )
  })

  test('the CIs contain the point estimates and are reproducible for a seed', () => {
    const { events } = series(seeded('ci'), 200, 3)
    const a = fitProjection(events, { resamples: 500, random: createRandomSource('p') })
    const b = fitProjection(events, { resamples: 500, random: createRandomSource('p') })
    expect(a.fixedMs).toEqual(b.fixedMs)
    expect(a.fixedMs.ci.low).toBeLessThanOrEqual(a.fixedMs.estimate)
    expect(a.fixedMs.ci.high).toBeGreaterThanOrEqual(a.fixedMs.estimate)
    expect(a.ratePerSecond.ci.low).toBeLessThanOrEqual(a.ratePerSecond.estimate)
    expect(a.ratePerSecond.ci.high).toBeGreaterThanOrEqual(a.ratePerSecond.estimate)
  })

  test('drops 10% of events as warm-up by default', () => {
    const { events } = series(seeded('w'), 100, 0)
    expect(fitProjection(events, { resamples: 10 })).toMatchObject({ warmupEvents: 10, eventsUsed: 90 })
  })

  test('rejects too few events and series that go backwards, naming the event', () => {
    expect(() => fitProjection([{ tMs: 1, done: 1 }], { warmupEvents: 0 })).toThrow(/need >= 3 after 0 warm-up/)
    const backwards = [
      { tMs: 1, done: 1 },
      { tMs: 2, done: 2 },
      { tMs: 3, done: 2 },
      { tMs: 4, done: 3 },
    ]
    expect(() => fitProjection(backwards, { warmupEvents: 0 })).toThrow(/event 2 goes backwards or repeats/)
  })
})
