import { describe, expect, test } from 'vitest'
import { heldOutChoice, heldOutGpuCounts, heldOutReserve } from '../../src/capacity/held-out-plan.ts'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import type { SuiteContext } from '../../src/engine/context.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import { LINEAR, plannedMeasurements, syntheticInput } from './support/synthetic-capacity.ts'

describe('heldOutChoice under a job limit (issue 57)', () => {
  // LINEAR at 1,000 / 2,000 / 4,000 records of a 10,000-record sample: the check at 10,000 takes about 2 min.
  const sample = 10_000
  const sizes = [1_000, 2_000, 4_000]
  const inputs = sizes.map((r) => syntheticInput(r, sample))
  const measured = plannedMeasurements(LINEAR, sizes, 3, createRandomSource('held-out-job-limit'))
  const ctx = {
    thresholds: DEFAULT_THRESHOLDS,
    inputs: { resize: async (_b: unknown, r: number) => syntheticInput(r, sample), sizeLimit: () => sample },
  } as unknown as SuiteContext
  const direct = { runs: 1, records: [sample] }
  const reserve = heldOutReserve(measured, inputs, DEFAULT_THRESHOLDS, [1], direct)

  test('the reserve holds the check in GPU-minutes and in wall time', () => {
    expect(reserve.wallMs).toBeGreaterThan(100_000)
    expect(reserve.wallMs).toBeLessThan(140_000)
    expect(reserve.gpuMinutes).toBeCloseTo(reserve.wallMs / 60_000, 9)
  })

  test('a check within the budget but not the time left is not run: the record says so, and the next invocation runs it', async () => {
    const choice = await heldOutChoice(ctx, measured, inputs, [1], direct, 60, reserve.gpuMinutes, reserve.wallMs - 1)
    expect(choice).toMatchObject({ records: null, jobLimit: true })
    expect(choice.why).toMatch(
      /^no held-out run yet: the job limit \(VIRNUCPRO_BENCH_JOB_LIMIT_S\) leaves \d+ s and the check takes about \d+ s; the same command again runs it$/,
    )
    const inTime = await heldOutChoice(ctx, measured, inputs, [1], direct, 60, reserve.gpuMinutes, reserve.wallMs + 1)
    expect(inTime.records).toBe(sample)
    expect(inTime.jobLimit).toBeUndefined()
    // No limit: as before.
    expect((await heldOutChoice(ctx, measured, inputs, [1], direct, 60, reserve.gpuMinutes)).records).toBe(sample)
    // Out of budget is the budget's reason, whatever the time.
    const poor = await heldOutChoice(ctx, measured, inputs, [1], direct, 0, 0, 1e9)
    expect(poor.jobLimit).toBeUndefined()
    expect(poor.why).toMatch(/budget/)
  })
})

describe('heldOutGpuCounts', () => {
  test('unset: every count measured, nothing to say', () => {
    expect(heldOutGpuCounts([1, 2], undefined)).toEqual({ gpuCounts: [1, 2], note: null })
    expect(heldOutGpuCounts([1], [])).toEqual({ gpuCounts: [1], note: null })
  })

  // Issue 47: CAPACITY_DIRECT=2 on a 1-GPU host (CAPACITY_GPUS unset) ran nothing directly and said nothing.
  test('a count asked for but not measured here is said in one line, with what is held out', () => {
    const { gpuCounts, note } = heldOutGpuCounts([1], [1, 2])
    expect(gpuCounts).toEqual([1])
    expect(note).toBe(
      'capacity held-out check: VIRNUCPRO_BENCH_CAPACITY_DIRECT=1,2: 2 GPU(s) not measured here (measured: 1), so no held-out run for it; held out on 1 GPU(s)',
    )
    expect(heldOutGpuCounts([1], [2]).note).toMatch(/none held out: the answer cannot read FINAL$/)
    expect(heldOutGpuCounts([1, 2], [2])).toEqual({ gpuCounts: [2], note: null })
  })
})
