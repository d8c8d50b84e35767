// The gpu project's test timeout is the job limit (benchmarks/support/gpu-timeouts.ts): a fixed 10 minutes cut the real
// VirNucPro's capacity test on an H200 under a job limit of 876 s.
import { describe, expect, test } from 'vitest'
import { gpuTestTimeoutMs } from '../../../benchmarks/support/gpu-timeouts.ts'

describe('the gpu project test timeout', () => {
  test('the job limit in ms: its default, a longer one, none where the limit is 0 (Vitest: no timeout)', () => {
    expect(gpuTestTimeoutMs({})).toBe(600_000)
    expect(gpuTestTimeoutMs({ VIRNUCPRO_BENCH_JOB_LIMIT_S: '876' })).toBe(876_000)
    expect(gpuTestTimeoutMs({ VIRNUCPRO_BENCH_JOB_LIMIT_S: '0' })).toBe(0)
  })

  test('a bad value keeps the default, so the config loads and the settings check can refuse it in its line', () => {
    expect(gpuTestTimeoutMs({ VIRNUCPRO_BENCH_JOB_LIMIT_S: 'ten minutes' })).toBe(600_000)
  })
})
