import { describe, expect, test } from 'vitest'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import type { ConfigMeasurements } from '../../src/suites/capacity.ts'
import { CAPACITY_MAX_TOPUPS, topUp } from '../../src/suites/capacity-topup.ts'
import type { ResolvedInput } from '../../src/suites/input.ts'
import type { MeasuredConfiguration } from '../../src/suites/measure-configuration.ts'
import type { RunObservation } from '../../src/suites/observe-run.ts'

const inputs = [1_000, 4_000].map(
  (records) =>
    ({ records, workRelativeDifference: 0, file: `in-${records}.fa`, source: {} }) as unknown as ResolvedInput,
)

/** A completed run of one stage that is all per-sequence work: `msPerSeq` x size, plus 5 s outside it. */
function observation(size: number, msPerSeq: number, warmup = false): RunObservation {
  const stageMs = msPerSeq * size
  return {
    measured: {
      label: `${size}`,
      config: {},
      warmup,
      gpu: null,
      run: {
        exitClass: 'completed',
        wallMs: 5_000 + stageMs,
        stages: [
          {
            index: 1,
            name: 'Six-Frame Translation',
            startMs: 5_000,
            endMs: 5_000 + stageMs,
            receivedDurationMs: stageMs,
            logDurationS: stageMs / 1000,
            summaryDurationS: null,
            skippedReason: null,
            extras: {},
          },
        ],
      },
    },
  } as unknown as RunObservation
}

function measurement(size: number, perSeq: readonly number[]): MeasuredConfiguration {
  return {
    config: { label: `1 GPU, ${size}` },
    observations: perSeq.map((p) => observation(size, p)),
    stop: 'run-budget',
    failure: null,
    fromCache: false,
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

describe('the sequential design', () => {
  test('adds runs at the largest size until the 6 M CI is on target, each one refitted', async () => {
    const measured = noisy()
    const added: number[] = []
    const state = await topUp(measured, {
      inputs,
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 1_000,
      measureOne: async (_c, k) => {
        added.push(k)
        return measurement(4_000, [3])
      },
    })
    expect(state.stop).toBe('targets-reached')
    expect(state.topUps).toBe(added.length)
    expect(added.length).toBeGreaterThan(0)
    expect(measured[0]!.bySize[1]!.observations).toHaveLength(3 + added.length)
  })

  test("stops at the budget, counted from the runs' own wall times, before a run that would overrun it", async () => {
    const measured = noisy()
    const spent = measured
      .flatMap((c) => c.bySize.flatMap((m) => m.observations))
      .reduce((a, o) => a + o.measured.run.wallMs, 0)
    const state = await topUp(measured, {
      inputs,
      thresholds: DEFAULT_THRESHOLDS,
      // Room for one more 4,000-sequence run (~17 s), not two.
      budgetGpuMinutes: (spent + 25_000) / 60_000,
      measureOne: async () => measurement(4_000, [3.9]),
    })
    expect(state).toMatchObject({ stop: 'budget', topUps: 1 })
    expect(state.gpuMinutes).toBeLessThanOrEqual(state.budgetGpuMinutes)
  })

  test('never more than CAPACITY_MAX_TOPUPS, however noisy and however large the budget', async () => {
    let flip = 0
    const state = await topUp(noisy(), {
      inputs,
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 1e9,
      measureOne: async () => measurement(4_000, [(flip++ % 2) * 6]),
    })
    expect(state).toMatchObject({ stop: 'max-top-ups', topUps: CAPACITY_MAX_TOPUPS })
  })

  test('a budget the planned runs have already spent adds no run', async () => {
    const a = noisy()
    const first = await topUp(a, {
      inputs,
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: 0.1,
      measureOne: async () => measurement(4_000, [3]),
    })
    expect(first).toMatchObject({ stop: 'budget', topUps: 0 })
  })
})
