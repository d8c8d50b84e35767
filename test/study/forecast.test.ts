// Issue 47: the study forecasts its runs and its time before the first run. The time stands on the capacity probe, the
// one run measured before the screen, or, where the sizes were given and no probe ran, on the default's warm-up, before
// the first measured run (src/study/forecast.ts).
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { screenForecastMs, screenForecastText, warmupForecastText } from '../../src/study/forecast.ts'
import { screenPlan } from '../../src/study/halving.ts'
import { screenSettings } from '../../src/study/screen.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted, tinyInput } from '../suites/support/cpu-suite.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'

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
    expect(screenForecastText(null, [9, 6], [250, 1_000])).toMatch(
      /^its time is forecast from the default's warm-up, before the first measured run \(.+\)$/,
    )
    expect(warmupForecastText({ records: 250, wallMs: 12_000 }, [9, 6], [250, 1_000])).toBe(
      "settings study forecast: the screen at most about 6.6 min (each run costed at the default's warm-up's 12.0 s at 250 records, scaled up by its size)",
    )
  })
})

const ready = await referencePipelineOnCpu()

describe('the screen says its time before its first run', () => {
  // The screen's lines up to the `count`th: a `say` that stops there reads them without measuring further.
  class Stop extends Error {}
  const setting = (size: number) => ({
    label: `esm-batch-size=${size}`,
    optionArgs: ['--esm-batch-size', String(size)],
    config: cpuConfig('1 worker', ['--esm-batch-size', String(size)]),
  })
  const linesUntil = async (
    count: number,
    prior: { records: number; wallMs: number } | null,
    ladder: { file: string; records: number }[],
    measure: object = {},
  ) => {
    const ctx = await cpuContext()
    const lines: string[] = []
    await expect(
      screenSettings(ctx, measure as never, {
        base: cpuConfig('1 worker'),
        settings: [setting(8192), setting(16384), setting(32768)],
        ladder: ladder as never,
        runsPerRound: 2,
        journal: { dir: ctx.workDir } as never,
        prior,
        say: (line) => {
          lines.push(line)
          if (lines.length === count) throw new Stop()
        },
      }),
    ).rejects.toBeInstanceOf(Stop)
    return lines
  }
  const nowhere = [250, 1_000].map((records) => ({ file: `/nonexistent/${records}.fa`, records }))

  test('with the probe run: at most about N min, before any run', async () => {
    const [line] = await linesUntil(1, { records: 1_000, wallMs: 8_000 }, nowhere)
    const plan = screenPlan(3, 2)
    const min = (plan.perRound[0]! * 8_000 + (plan.perRound[1] ?? 0) * 8_000) / 60_000
    expect(line).toContain(`at most ${plan.runs} screening run(s)`)
    expect(line).toContain(`the screen at most about ${min.toFixed(1)} min`)
  })

  test('without one (the sizes given): says the time follows the warm-up, before any run', async () => {
    const [line] = await linesUntil(1, null, nowhere)
    expect(line).toContain("its time is forecast from the default's warm-up, before the first measured run")
  })

  test.skipIf(ready.state !== 'ready')(
    "without one: the forecast from the default's warm-up comes right after it, before the first measured run",
    async () => {
      const ladder = [{ file: await tinyInput(4), records: 4 }]
      const [, warmupLine, forecast] = await linesUntil(3, null, ladder, scripted([fakeGpu(90)], 2, 1))
      expect(warmupLine).toMatch(/^settings study round 1 of at most \d+: default, 4 seqs, round 1 warm-up 1: /)
      const seconds = Number(/warm-up 1: ([\d.]+) s/.exec(warmupLine!)![1])
      expect(forecast).toMatch(
        /^settings study forecast: the screen at most about [\d.]+ min \(each run costed at the default's warm-up's [\d.]+ s at 4 records/,
      )
      const plan = screenPlan(3, 2)
      const min = Number(/at most about ([\d.]+) min/.exec(forecast!)![1])
      // Every run at the warm-up's time (one size: nothing scaled up); both figures as printed, rounded to 0.1.
      expect(Math.abs(min - (plan.runs * seconds) / 60)).toBeLessThanOrEqual(0.05 + (plan.runs * 0.05) / 60 + 1e-9)
    },
    60_000,
  )
})
