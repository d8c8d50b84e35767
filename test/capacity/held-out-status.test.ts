// Issue 58: one status from one function, whatever path led to the analysis: FINAL only where every fitted
// configuration has a run above its fitted sizes inside the projected interval; a miss UNDECIDED; everything else
// UNCHECKED, each configuration with why and what would give it a check.
import { describe, expect, test } from 'vitest'
import { statusTextOf } from '../../src/capacity/answer-state.ts'
import type { HeldOutCheck } from '../../src/capacity/held-out.ts'
import { heldOutStatus, type StatusStats, uncheckedLine } from '../../src/capacity/held-out-status.ts'

const config = (gpuCount: number, sizes: number[]) =>
  ({
    label: `${gpuCount} GPU${gpuCount === 1 ? '' : 's'}`,
    gpuCount,
    sizes: sizes.map((records) => ({ records, sequences: records, runs: 2, medianWallMs: records })),
  }) as unknown as StatusStats['configurations'][number]

const check = (gpuCount: number, records: number, insideCi: boolean | null): HeldOutCheck => ({
  gpuCount,
  insideCi,
  projectedMs: insideCi === null ? null : { estimate: 1, ci: { low: 0, high: 2, level: 0.95 } },
  errorPct: insideCi === null ? null : insideCi ? 2 : 40,
  label: `${gpuCount} GPU${gpuCount === 1 ? '' : 's'}`,
  records,
  sequences: records,
  runs: 1,
  medianWallMs: 1,
})

const stats = (over: Partial<StatusStats>): StatusStats => ({
  configurations: [config(1, [250, 400])],
  sequential: null,
  ...over,
})

describe('the held-out status of a stopped answer', () => {
  test('inside above the fitted sizes on every configuration: inside; one configuration short: unchecked, naming it', () => {
    expect(heldOutStatus(stats({ direct: [check(1, 1002, true)] })).state).toBe('inside')
    const two = heldOutStatus(
      stats({ configurations: [config(1, [250, 400]), config(2, [250, 400])], direct: [check(1, 1002, true)] }),
    )
    expect(two.state).toBe('unchecked')
    expect(two.unchecked.map((u) => u.gpuCount)).toEqual([2])
  })

  test('a miss on any fitted configuration is missed, even beside a check inside', () => {
    const s = stats({
      configurations: [config(1, [250, 400]), config(2, [250, 400])],
      direct: [check(1, 1002, true), check(2, 1002, false)],
    })
    expect(heldOutStatus(s).state).toBe('missed')
  })

  test('a size left out of a refit that lies within the fitted ones is no check: unchecked, saying so', () => {
    const s = heldOutStatus(stats({ configurations: [config(1, [250, 1002])], direct: [check(1, 400, true)] }))
    expect(s.state).toBe('unchecked')
    expect(s.unchecked[0]!.why).toMatch(/400 records\) lies within the fitted sizes/)
  })

  test('a held-out run with no interval to fall in is unchecked, never inside', () => {
    const s = heldOutStatus(stats({ direct: [check(1, 1002, null)] }))
    expect(s.state).toBe('unchecked')
    expect(s.unchecked[0]!.why).toMatch(/no projected interval/)
  })

  test('no design and no plan (a record before held-out checks, or judged once): unchecked with the refit that would check it', () => {
    const s = heldOutStatus(stats({}))
    expect(s.state).toBe('unchecked')
    expect(s.unchecked[0]!.fix).toMatch(/--sizes/)
  })

  test('a budget too small for the check: why and the budget to give', () => {
    const s = heldOutStatus(
      stats({
        sizeChoice: {
          plan: null,
          heldOut: {
            records: null,
            why: "no held-out run: 0.0 of the budget's 0 GPU-min left, and 1,002 records about 0.3 GPU-min; give a larger VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN",
          },
        },
      }),
    )
    expect(s.state).toBe('unchecked')
    expect(uncheckedLine(s.unchecked[0]!)).toBe(
      "UNCHECKED, 1 GPU: no held-out run: 0.0 of the budget's 0 GPU-min left, and 1,002 records about 0.3 GPU-min; to check it: a larger VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN (the same command again continues and runs the check)",
    )
  })

  test('issue 57: a check the job limit left no time for: why, and the same command again as the fix', () => {
    const why =
      'no held-out run yet: the job limit (VIRNUCPRO_BENCH_JOB_LIMIT_S) leaves 20 s and the check takes about 31 s; the same command again runs it'
    const s = heldOutStatus(stats({ sizeChoice: { plan: null, heldOut: { records: null, why, jobLimit: true } } }))
    expect(s.state).toBe('unchecked')
    expect(uncheckedLine(s.unchecked[0]!)).toBe(
      `UNCHECKED, 1 GPU: ${why}; to check it: the same command again: it goes on where the job limit stopped this invocation and runs the check`,
    )
  })

  test('a GPU count VIRNUCPRO_BENCH_CAPACITY_DIRECT left out, and a held-out run that failed, each say so', () => {
    const choice = { records: 1002, why: 'Held out 1,002 records', gpuCounts: [1], failed: [] }
    const left = heldOutStatus(
      stats({
        configurations: [config(1, [250, 400]), config(2, [250, 400])],
        direct: [check(1, 1002, true)],
        sizeChoice: { plan: null, heldOut: choice },
      }),
    )
    expect(left.unchecked[0]!.why).toMatch(/VIRNUCPRO_BENCH_CAPACITY_DIRECT left it out/)
    const failed = heldOutStatus(
      stats({
        sizeChoice: { plan: null, heldOut: { ...choice, failed: [{ gpuCount: 1, reason: 'CUDA out of memory' }] } },
      }),
    )
    expect(failed.unchecked[0]!.why).toBe('its held-out run of 1,002 records failed: CUDA out of memory')
  })

  test('nothing fitted: unchecked, never inside', () => {
    expect(heldOutStatus(stats({ configurations: [], direct: [check(1, 1002, true)] })).state).toBe('unchecked')
  })

  test('the words each state reads', () => {
    const stopped = { final: true, keptRuns: 6, plannedRuns: 6 }
    expect(statusTextOf({ ...stopped, check: 'inside' })).toBe('FINAL')
    expect(statusTextOf({ ...stopped, check: 'missed' })).toBe('UNDECIDED (held-out check missed)')
    expect(statusTextOf({ ...stopped, check: 'unchecked' })).toBe('UNCHECKED (no held-out run)')
    expect(statusTextOf({ ...stopped, final: false, check: 'missed' })).toBe('PROVISIONAL (6 of 6 runs)')
  })
})
