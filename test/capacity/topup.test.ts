import { describe, expect, test } from 'vitest'
import { analyzeCapacity, type ConfigMeasurements } from '../../src/capacity/analyze.ts'
import { REACH_RUN_TIME_RATIO } from '../../src/capacity/design.ts'
import {
  CAPACITY_MAX_TOPUPS,
  overrunFactor,
  runsWithinLimit,
  type TopUpOptions,
  topUp,
} from '../../src/capacity/topup.ts'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import type { MeasuredConfiguration } from '../../src/engine/measure-configuration.ts'
import type { RunObservation } from '../../src/engine/observe-run.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import {
  LINEAR,
  plannedMeasurements,
  type SyntheticTarget,
  syntheticInput,
  syntheticMeasurement,
  trueWallMs,
} from './support/synthetic-capacity.ts'

const inputs = () => [1_000, 4_000].map((records) => syntheticInput(records, 20_000))

/** A completed run of one stage that is all per-sequence work: `msPerSeq` x size, plus 5 s outside it. */
function observation(size: number, msPerSeq: number): RunObservation {
  const target: SyntheticTarget = {
    outsideMs: 5_000,
    outsideSdMs: 0,
    stageFixedMs: 0,
    workMs: (x) => msPerSeq * x,
    stageCv: 0,
  }
  return syntheticMeasurement(target, size, 1, createRandomSource('fixed')).observations[0]!
}

function measurement(size: number, perSeq: readonly number[]): MeasuredConfiguration {
  return {
    config: { label: `1 GPU, ${size}` },
    observations: perSeq.map((p) => observation(size, p)),
    stop: 'run-budget',
    failure: null,
    reusedRuns: 0,
  } as unknown as MeasuredConfiguration
}

/** 1 GPU with a noisy per-sequence cost at the largest size: one of its three runs 20% slow (a host slowdown). */
const noisy = (): ConfigMeasurements[] => [
  {
    config: { label: '1 GPU' } as ConfigMeasurements['config'],
    gpuCount: 1,
    bySize: [measurement(1_000, [3, 3.01, 2.99]), measurement(4_000, [3, 3.6, 3.02])],
  },
]

const spentMs = (measured: readonly ConfigMeasurements[]) =>
  measured.flatMap((c) => c.bySize.flatMap((m) => m.observations)).reduce((a, o) => a + o.measured.run.wallMs, 0)

/** A resizer over a user's sample of `sourceRecords`, as InputResolver.resize gives one. */
const resizer = (sourceRecords: number): NonNullable<TopUpOptions['sizes']> => ({
  resize: async (_base, records) => syntheticInput(records, sourceRecords),
  maxRecords: sourceRecords,
})

describe('the sequential design, repeats only (no way to make a new size)', () => {
  test('adds runs at the ends of the measured range until the 6 M CI is on target, each one refitted', async () => {
    const measured = noisy()
    const added: { records: number; runs: number }[] = []
    const state = await topUp(measured, {
      inputs: inputs(),
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 1_000,
      measure: async (_c, input, runs) => {
        added.push({ records: input.records, runs })
        return measurement(input.records, Array(runs).fill(3))
      },
    })
    expect(state.stop).toBe('targets-reached')
    expect(state.topUps).toBe(added.length)
    expect(added.length).toBeGreaterThan(0)
    for (const a of added) expect([1_000, 4_000]).toContain(a.records)
    expect(measured[0]!.bySize.flatMap((m) => m.observations)).toHaveLength(6 + added.length)
    // Each decision is in the record with why: which run won, and what it was expected to give per GPU-minute.
    expect(state.steps).toHaveLength(added.length)
    for (const s of state.steps) {
      expect(s.kind).toBe('repeat')
      expect(s.gainPerGpuMinute).toBeGreaterThan(0)
      expect(s.expectedHalfWidth).toBeLessThan(s.halfWidthBefore)
      expect(s.why).toMatch(/6 M CI \+-[\d.]+% expected to \+-[\d.]+% \(target \+-3\.0%\)/)
    }
  })

  test("stops at the budget, counted from the runs' own wall times, before a run that would overrun it", async () => {
    const measured = noisy()
    const state = await topUp(measured, {
      inputs: inputs(),
      thresholds: DEFAULT_THRESHOLDS,
      // Room for one more 4,000-sequence run (~17 s), not two.
      budgetGpuMinutes: (spentMs(measured) + 25_000) / 60_000,
      measure: async (_c, input) => measurement(input.records, [3.9]),
    })
    expect(state).toMatchObject({ stop: 'budget', topUps: 1 })
    expect(state.gpuMinutes).toBeLessThanOrEqual(state.budgetGpuMinutes)
  })

  test('the budget is a cap: no room overspent by runs as slow, against their median, as the slowest already seen', async () => {
    // The noisy fixture's slowest run: 3.6 ms/seq where its size's median is 3.02 (with 5 s outside: x1.136).
    expect(overrunFactor(noisy())).toBeCloseTo((5_000 + 3.6 * 4_000) / (5_000 + 3.02 * 4_000), 9)
    const slowPerSeq = (records: number) => ((5_000 + 3.0 * records) * overrunFactor(noisy()) - 5_000) / records
    for (let roomMs = 8_000; roomMs <= 60_000; roomMs += 1_000) {
      const measured = noisy()
      const state = await topUp(measured, {
        inputs: inputs(),
        thresholds: DEFAULT_THRESHOLDS,
        budgetGpuMinutes: (spentMs(measured) + roomMs) / 60_000,
        measure: async (_c, input) => measurement(input.records, [slowPerSeq(input.records)]),
      })
      expect(state.gpuMinutes, `room ${roomMs} ms`).toBeLessThanOrEqual(state.budgetGpuMinutes)
    }
    // 53 designs of a few analyses each: 25 s alone on 2 cores, past the 30 s default beside other files.
  }, 120_000)

  test('one run a size, or all alike, expects no overrun', () => {
    const one = noisy().map((c) => ({
      ...c,
      bySize: c.bySize.map((m) => ({ ...m, observations: m.observations.slice(0, 1) })),
    }))
    expect(overrunFactor(one)).toBe(1)
    expect(overrunFactor([{ ...noisy()[0]!, bySize: [measurement(1_000, [3, 3, 3])] }])).toBe(1)
  })

  test('never more than CAPACITY_MAX_TOPUPS runs, however noisy and however large the budget', async () => {
    let flip = 0
    const state = await topUp(noisy(), {
      inputs: inputs(),
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 1e9,
      measure: async (_c, input) => measurement(input.records, [(flip++ % 2) * 6]),
    })
    expect(state).toMatchObject({ stop: 'max-top-ups', topUps: CAPACITY_MAX_TOPUPS })
  })

  test('a budget the planned runs have already spent adds no run', async () => {
    const first = await topUp(noisy(), {
      inputs: inputs(),
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 0.1,
      measure: async (_c, input) => measurement(input.records, [3]),
    })
    expect(first).toMatchObject({ stop: 'budget', topUps: 0, steps: [] })
  })
})

describe('the sequential design under a job limit (VIRNUCPRO_BENCH_JOB_LIMIT_S, issue 57)', () => {
  test('a step is cut to the runs its time left holds, each as slow as the overrun seen, on its own GPUs', () => {
    // 4 runs of 0.5 GPU-min on 1 GPU: 30 s each.
    expect(runsWithinLimit({ runs: 4, gpuMinutes: 2 }, 1, 1, undefined)).toBe(4)
    expect(runsWithinLimit({ runs: 4, gpuMinutes: 2 }, 1, 1, 95_000)).toBe(3)
    expect(runsWithinLimit({ runs: 4, gpuMinutes: 2 }, 1, 1.2, 95_000)).toBe(2)
    expect(runsWithinLimit({ runs: 4, gpuMinutes: 2 }, 1, 1, 29_999)).toBe(0)
    expect(runsWithinLimit({ runs: 4, gpuMinutes: 2 }, 1, 1, -5_000)).toBe(0)
    expect(runsWithinLimit({ runs: 4, gpuMinutes: 2 }, 1, 1, 1e9)).toBe(4)
    // On 2 GPUs the same GPU-minutes are half the wall time.
    expect(runsWithinLimit({ runs: 4, gpuMinutes: 2 }, 2, 1, 45_000)).toBe(3)
  })

  /** The design on the noisy fixture with the runs' own wall times as its clock: `limitMs` of it for top-ups. */
  async function limited(limitMs: number | undefined) {
    const measured = noisy()
    const start = spentMs(measured)
    const added: { records: number; runs: number }[] = []
    const state = await topUp(measured, {
      inputs: inputs(),
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 1_000,
      ...(limitMs !== undefined && { timeLeftMs: () => limitMs - (spentMs(measured) - start) }),
      measure: async (_c, input, runs) => {
        added.push({ records: input.records, runs })
        return measurement(input.records, Array(runs).fill(3))
      },
    })
    return { state, added, addedMs: spentMs(measured) - start }
  }

  test('the design stops short of the limit, says so, and took the steps the unlimited design takes first', async () => {
    const free = await limited(undefined)
    expect(free.added.length).toBeGreaterThan(1)
    for (const limitMs of [0, 20_000, 40_000, 90_000]) {
      const cut = await limited(limitMs)
      expect(cut.state.stop, `limit ${limitMs}`).toBe('job-limit')
      expect(cut.addedMs, `limit ${limitMs}`).toBeLessThanOrEqual(limitMs)
      // The choice is the budget's, not the clock's: the same command again replays these steps and goes on.
      expect(cut.state.steps.map((x) => [x.label, x.records])).toEqual(
        free.state.steps.slice(0, cut.state.steps.length).map((x) => [x.label, x.records]),
      )
    }
    expect((await limited(0)).added).toEqual([])
    // A limit the whole design fits stops as the unlimited one did.
    expect((await limited(1e9)).state.stop).toBe(free.state.stop)
  })
})

describe('the sequential design, sizes too', () => {
  test('first reaches the size whose run takes 4x the smallest, adding it in order to the inputs and every configuration', async () => {
    const random = createRandomSource('reach')
    const measured = plannedMeasurements(LINEAR, [1_000, 4_000], 2, random)
    const sized = inputs()
    const asked: number[] = []
    const state = await topUp(measured, {
      inputs: sized,
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 1_000,
      sizes: resizer(200_000),
      measure: async (_c, input, runs) => {
        asked.push(input.records)
        return syntheticMeasurement(LINEAR, input.records, runs, random)
      },
    })
    const first = state.steps[0]!
    expect(first.kind).toBe('reach')
    // LINEAR: 60 s fixed + 6.1 ms a sequence; 4 x a 66 s run is 264 s, at about 33,000 records (the fit's, +-10%).
    const expected = (REACH_RUN_TIME_RATIO * trueWallMs(LINEAR, 1_000) - 60_000) / 6.1
    expect(first.records / expected).toBeGreaterThan(0.9)
    expect(first.records / expected).toBeLessThan(1.1)
    expect(first.runs).toBe(2)
    expect(first.why).toMatch(/a range a bend in the cost can show over/)
    expect(asked[0]).toBe(first.records)
    const records = sized.map((i) => i.records)
    expect(records).toEqual([...records].sort((a, b) => a - b))
    expect(records.length).toBeGreaterThanOrEqual(3)
    for (const c of measured) expect(c.bySize).toHaveLength(sized.length)
    expect(['targets-reached', 'max-top-ups']).toContain(state.stop)
  })

  test('where the input is already whole, a third size in the middle of the range', async () => {
    const random = createRandomSource('middle')
    const measured = plannedMeasurements(LINEAR, [1_000, 4_000], 2, random)
    const sized = [1_000, 4_000].map((records) => syntheticInput(records, 4_000))
    const state = await topUp(measured, {
      inputs: sized,
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 1_000,
      sizes: resizer(4_000),
      measure: async (_c, input, runs) => syntheticMeasurement(LINEAR, input.records, runs, random),
    })
    expect(state.steps[0]).toMatchObject({ kind: 'third size', records: 2_000, runs: 2 })
    expect(sized.map((i) => i.records)).toEqual([1_000, 2_000, 4_000])
  })

  test('a run that fails at a new size stops the design and says so; the planned runs still fit', async () => {
    const random = createRandomSource('fails')
    const measured = plannedMeasurements(LINEAR, [1_000, 4_000], 2, random)
    const sized = inputs()
    const state = await topUp(measured, {
      inputs: sized,
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 1_000,
      sizes: resizer(200_000),
      measure: async (_c, input) => {
        const m = syntheticMeasurement(LINEAR, input.records, 1, random)
        const run = m.observations[0]!.measured.run as { exitClass: string }
        run.exitClass = 'oom'
        return {
          ...m,
          failure: { label: `1 GPU, ${input.records} run 1`, exitClass: 'oom', reason: 'CUDA out of memory' },
        }
      },
    })
    expect(state).toMatchObject({ stop: 'run-failed', topUps: 1 })
    expect(state.failure).toMatch(/ended as oom: CUDA out of memory/)
    const { stats } = analyzeCapacity(measured, sized, DEFAULT_THRESHOLDS)
    expect(stats.configurations.map((c) => c.sizes.length)).toEqual([2])
  })

  test('a wall time that is not a line over the sizes gets no more runs, and its model says so', async () => {
    const random = createRandomSource('bent')
    // Per-sequence cost 3 ms up to 4,000 sequences, 6 ms beyond: a knee no noise hides.
    const bent: SyntheticTarget = {
      ...LINEAR,
      workMs: (x) => 3 * Math.min(x, 4_000) + 6 * Math.max(0, x - 4_000),
    }
    const measured = plannedMeasurements(bent, [1_000, 4_000], 3, random)
    const sized = inputs()
    const state = await topUp(measured, {
      inputs: sized,
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 1_000,
      sizes: resizer(20_000),
      measure: async (_c, input, runs) => syntheticMeasurement(bent, input.records, runs, random),
    })
    expect(state.stop).toBe('not-a-line')
    expect(state.notALine).toEqual(['1 GPU'])
    // The reach, then runs that confirm the bend where it shows (4 at each size of its contrast), then nothing more.
    const [first, ...rest] = state.steps.map((s) => s.kind)
    expect(first).toBe('reach')
    expect(new Set(rest)).toEqual(new Set(['bend check']))
    for (const c of analyzeCapacity(measured, sized, DEFAULT_THRESHOLDS).stats.configurations[0]!.sizes)
      expect(c.runs).toBeGreaterThanOrEqual(4)
    const { stats } = analyzeCapacity(measured, sized, DEFAULT_THRESHOLDS)
    const support = stats.configurations[0]!.support
    expect(support.supported).toBe(false)
    expect(support.lineFit!.pValue).toBeLessThan(0.01)
    expect(support.problems.join('\n')).toMatch(
      /not a line over the 3 measured sizes .* grows with size .* projects production sizes low/,
    )
  })
})
