import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { MonitorSummary } from '../../src/monitor/summary/summarize.ts'
import { checkEnergy } from '../../src/validation/energy-check.ts'

/** The parts of a summary checkEnergy reads (the rest of the type is irrelevant here). */
function summary(durationMs: number, gpus: { powerMw: number; energyJ: number | null; requested?: boolean }[]) {
  return {
    durationMs,
    gpus: gpus.map((g, i) => ({
      gpu: i,
      requested: g.requested ?? true,
      energyJ: g.energyJ,
      metrics: { powerMw: { mean: g.powerMw } },
    })),
  } as unknown as MonitorSummary
}

describe('checkEnergy', () => {
  test('a counter equal to constant power x time agrees exactly, per sequence', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1_000, max: 1e6, noNaN: true }),
        fc.double({ min: 100, max: 1e6, noNaN: true }),
        fc.integer({ min: 1, max: 1e6 }),
        (powerMw, durationMs, n) => {
          const j = (powerMw * durationMs) / 1e6
          const c = checkEnergy(summary(durationMs, [{ powerMw, energyJ: j }]), n)
          expect(c).toMatchObject({ state: 'within' })
          if (c.state === 'within') expect(c.counterJPerSequence).toBeCloseTo(j / n, 9)
        },
      ),
    )
  })

  test('a counter 15% above power x time is outside 10%', () => {
    const c = checkEnergy(summary(1_000, [{ powerMw: 300_000, energyJ: 345 }]), 10)
    expect(c).toMatchObject({ state: 'outside' })
    if (c.state === 'outside') expect(c.relativeError).toBeCloseTo(0.15, 9)
  })

  test('GPUs not asked for are left out', () => {
    const c = checkEnergy(
      summary(1_000, [
        { powerMw: 100_000, energyJ: 100 },
        { powerMw: 50_000, energyJ: 500, requested: false },
      ]),
      1,
    )
    expect(c).toMatchObject({ state: 'within', gpus: [0] })
  })

  test('no counter readings: missing, with the GPU named', () => {
    expect(checkEnergy(summary(1_000, [{ powerMw: 1, energyJ: null }]), 1)).toEqual({
      state: 'missing',
      reason: 'GPU 0: no energy counter readings',
    })
  })
})
