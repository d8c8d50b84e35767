import { describe, expect, test } from 'vitest'
import { logStampMs, progressFromLog } from '../../src/suites/progress-from-log.ts'
import { h100Log, h100Record } from './support/gpu-capacity.ts'

describe('stage progress read back from a pipeline log', () => {
  test('log stamps: whole seconds on the main process, ,mmm on workers; anything else is no stamp', () => {
    expect(logStampMs('2026-11-25 20:19:01,250')! - logStampMs('2026-11-25 20:19:00')!).toBe(1_250)
    expect(logStampMs(null)).toBeNull()
    expect(logStampMs('20:19:00')).toBeNull()
  })

  test("an H100 run's log gives the same lines as its record kept, on the log's coarser clock", () => {
    const series = progressFromLog(h100Log().split('\n'))
    const run = h100Record('a1').runs.find((r) => r.label === '1 GPU, 4,000 seqs run 2')!
    for (const kept of run.progress!) {
      const read = series.find((s) => s.stage === kept.stage && s.worker === kept.worker)!
      expect(read.done).toEqual(kept.done)
      expect(read.total).toBe(kept.total)
      // Whole seconds against the runner's ms: the span agrees within the log's resolution.
      const span = (p: typeof read) => p.atMs.at(-1)! - p.atMs[0]!
      expect(Math.abs(span(read) - span(kept))).toBeLessThanOrEqual(1_000)
    }
  })
})
