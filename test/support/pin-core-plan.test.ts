import { describe, expect, test } from 'vitest'
import { configuredTimedWorkers, timedWorkerCore, timedWorkers } from './pin-core-plan.ts'

describe('the timed files side by side', () => {
  test('two on 2 or more cores with taskset; one at a time on one core or without taskset', () => {
    expect(timedWorkers(2, true)).toBe(2)
    expect(timedWorkers(16, true)).toBe(2)
    expect(timedWorkers(1, true)).toBe(1)
    expect(timedWorkers(8, false)).toBe(1)
  })

  test('worker n on core n - 1; none pinned when one at a time; a worker id that is no number is refused', () => {
    expect(timedWorkerCore('1', 2)).toBe(0)
    expect(timedWorkerCore('2', 2)).toBe(1)
    expect(timedWorkerCore('3', 2)).toBe(0)
    expect(timedWorkerCore('1', 1)).toBeNull()
    expect(timedWorkerCore(undefined, 1)).toBeNull()
    expect(() => timedWorkerCore(undefined, 2)).toThrow("VITEST_POOL_ID 'undefined' is not a worker number")
    expect(() => timedWorkerCore('0', 2)).toThrow(/is not a worker number/)
  })

  test("the count a worker pins by is the config's, 1 where none or no count is given", () => {
    expect(configuredTimedWorkers({ VIRNUCPRO_BENCH_TIMED_WORKERS: '2' })).toBe(2)
    expect(configuredTimedWorkers({})).toBe(1)
    expect(configuredTimedWorkers({ VIRNUCPRO_BENCH_TIMED_WORKERS: 'two' })).toBe(1)
  })
})
