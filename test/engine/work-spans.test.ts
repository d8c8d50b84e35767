import { describe, expect, test } from 'vitest'
import { gpuOfWorker, workSpansOf } from '../../src/engine/work-spans.ts'
import { ESM2, v2LogEvents, v2Run } from '../capacity/support/v2-log-run.ts'

describe("each worker's GPU work as the log bounds it", () => {
  test('the real 2-GPU log: per GPU, from its `First batch ready` to its `Async inference complete`, from the stage start', () => {
    const { events, progress } = v2LogEvents()
    const run = v2Run(events)
    // The stage starts at 01:36:16 (main process, whole seconds); worker 0's first batch 01:37:02.713, its end
    // 01:37:15.851; worker 1's 01:37:04.517 and 01:37:17.684.
    expect(workSpansOf(progress, run)).toEqual([
      { stage: ESM2, gpu: 0, startMs: 46_713, endMs: 59_851 },
      { stage: ESM2, gpu: 1, startMs: 48_517, endMs: 61_684 },
    ])
  })

  test('a record kept before the `First batch ready` line was: its first `Batch` line, one batch later', () => {
    const { events, progress } = v2LogEvents()
    const old = progress.map(({ firstBatchMs: _, ...p }) => p)
    const spans = workSpansOf(old, v2Run(events))
    // Worker 0's `Batch 0` line: 01:37:03.451.
    expect(spans[0]).toEqual({ stage: ESM2, gpu: 0, startMs: 47_451, endMs: 59_851 })
  })

  test('below the buffer (no batch lines) no span: the samples say where the work starts', () => {
    const { events, progress } = v2LogEvents()
    expect(
      workSpansOf(
        progress.filter((p) => p.source !== undefined),
        v2Run(events),
      ),
    ).toEqual([])
  })

  test('worker r ran on GPU r, which its CUDA_VISIBLE_DEVICES names; else on the r-th GPU the run used', () => {
    expect(gpuOfWorker(1, { gpusUsed: null })).toBe(1)
    expect(gpuOfWorker(1, { gpusUsed: [0, 1] })).toBe(1)
    expect(gpuOfWorker(1, { gpusUsed: [5, 3] })).toBe(5)
    expect(gpuOfWorker(2, { gpusUsed: [3, 5] })).toBeNull()
  })
})
