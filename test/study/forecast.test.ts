// Issue 47: the study forecasts its runs and its time before the first run. The time stands on the capacity probe, the
// one run measured before the screen (src/study/forecast.ts).
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { screenForecastMs, screenForecastText } from '../../src/study/forecast.ts'
import { screenPlan } from '../../src/study/halving.ts'
import { screenSettings } from '../../src/study/screen.ts'
import { cpuConfig, cpuContext } from '../suites/support/cpu-suite.ts'

describe('screenForecastMs', () => {
  test("each run at the probe's time, scaled up by a larger round's size, never down", () => {
    const prior = { records: 1_000, wallMs: 10_000 }
    // 9 runs at 250 records (the probe's 10 s each: start-up holds them up), 6 at 1,000, 2 at 4,000 (4x).
    expect(screenForecastMs(prior, [9, 6, 2], [250, 1_000, 4_000])).toBe(9 * 10_000 + 6 * 10_000 + 2 * 40_000)
    // A ladder shorter than the rounds: the last size repeats (sizeOfRound).
    expect(screenForecastMs(prior, [3, 3], [2_000])).toBe(6 * 20_000)
  })

  test('property: at least the runs at the probe time, growing with every round size and run count', () => {
    fc.assert(
      fc.property(
        fc.record({ records: fc.integer({ min: 1, max: 100_000 }), wallMs: fc.integer({ min: 1, max: 600_000 }) }),
        fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 5 }),
        fc.array(fc.integer({ min: 1, max: 100_000 }), { minLength: 1, maxLength: 5 }),
        (prior, perRound, roundRecords) => {
          const ms = screenForecastMs(prior, perRound, roundRecords)
          const runs = perRound.reduce((a, b) => a + b, 0)
          expect(ms).toBeGreaterThanOrEqual(runs * prior.wallMs - 1e-6)
          expect(screenForecastMs(prior, [...perRound, 1], roundRecords)).toBeGreaterThan(ms)
          const larger = roundRecords.map((r) => r * 2)
          expect(screenForecastMs(prior, perRound, larger)).toBeGreaterThanOrEqual(ms - 1e-6)
        },
      ),
      { seed: 47, numRuns: 200 },
    )
  })

  test('the clause says what it stands on, or why there is no forecast yet', () => {
    expect(screenForecastText({ records: 1_000, wallMs: 8_700 }, [9, 6], [250, 1_000])).toBe(
      "the screen at most about 2.2 min (each run costed at the probe run's 8.7 s at 1,000 records, scaled up by its size)",
    )
    expect(screenForecastText(null, [9, 6], [250, 1_000])).toMatch(/^its time is forecast after its first run \(.+\)$/)
  })
})

describe('the screen says its time before its first run', () => {
  // The plan line is said before any run: a `say` that stops at the first line reads it without measuring anything.
  class Stop extends Error {}
  const planLine = async (prior: { records: number; wallMs: number } | null) => {
    const ctx = await cpuContext()
    const lines: string[] = []
    const base = cpuConfig('1 worker')
    const setting = (size: number) => ({
      label: `esm-batch-size=${size}`,
      optionArgs: ['--esm-batch-size', String(size)],
      config: cpuConfig('1 worker', ['--esm-batch-size', String(size)]),
    })
    const ladder = [250, 1_000].map((records) => ({ file: `/nonexistent/${records}.fa`, records }) as never)
    await expect(
      screenSettings(ctx, {} as never, {
        base,
        settings: [setting(8192), setting(16384), setting(32768)],
        ladder,
        runsPerRound: 2,
        journal: { dir: ctx.workDir } as never,
        prior,
        say: (line) => {
          lines.push(line)
          throw new Stop()
        },
      }),
    ).rejects.toBeInstanceOf(Stop)
    return lines[0]!
  }

  test('with the probe run: at most about N min, before any run', async () => {
    const line = await planLine({ records: 1_000, wallMs: 8_000 })
    const plan = screenPlan(3, 2)
    const min = (plan.perRound[0]! * 8_000 + (plan.perRound[1] ?? 0) * 8_000) / 60_000
    expect(line).toContain(`at most ${plan.runs} screening run(s)`)
    expect(line).toContain(`the screen at most about ${min.toFixed(1)} min`)
  })

  test('without one (the sizes given): says the time follows its first run', async () => {
    expect(await planLine(null)).toContain('its time is forecast after its first run')
  })
})
