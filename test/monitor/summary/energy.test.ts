import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { counterAt, counterEnergyJ, powerEnergyJ } from '../../../src/monitor/summary/energy.ts'

describe('energy over windows', () => {
  test('the counter is interpolated between readings and clamped outside them', () => {
    const readings = [
      { tMs: 100, value: 1_000 },
      { tMs: 300, value: 3_000 },
    ]
    expect([0, 100, 150, 300, 400].map((t) => counterAt(readings, t))).toEqual([1_000, 1_000, 1_500, 3_000, 3_000])
  })

  test('fewer than two counter readings give no energy', () => {
    expect(counterEnergyJ([{ tMs: 0, value: 5 }], [{ stage: null, startMs: 0, endMs: 10 }])).toBeNull()
  })

  test('property: at constant power, counter energy and the power integral agree with power x time', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 700 }),
        fc.integer({ min: 2, max: 50 }),
        fc.integer({ min: 0, max: 40 }),
        fc.integer({ min: 1, max: 40 }),
        (powerW, count, startTick, lengthTicks) => {
          const stepMs = 100
          const times = Array.from({ length: count }, (_, i) => i * stepMs)
          const counter = times.map((tMs) => ({ tMs, value: powerW * tMs })) // W x ms = mJ
          const power = times.map((tMs) => ({ tMs, value: powerW * 1000 }))
          const lastMs = (count - 1) * stepMs
          const startMs = Math.min(startTick * stepMs, lastMs)
          const endMs = Math.min(startMs + lengthTicks * stepMs, lastMs)
          const windows = [{ stage: null, startMs, endMs }]
          const expectedJ = (powerW * (endMs - startMs)) / 1000
          expect(counterEnergyJ(counter, windows)).toBeCloseTo(expectedJ, 6)
          expect(powerEnergyJ(power, windows)).toBeCloseTo(expectedJ, 6)
        },
      ),
      { numRuns: 300 },
    )
  })
})
