import { describe, expect, test } from 'vitest'
import { heldOutGpuCounts } from '../../src/capacity/held-out-plan.ts'

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
