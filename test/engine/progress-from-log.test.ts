import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { stageSteady } from '../../src/capacity/rates.ts'
import { logStampMs, progressFromLog } from '../../src/engine/progress-from-log.ts'
import { h100Log, h100Record } from '../capacity/support/gpu-capacity.ts'
import { VIRNUCPRO_FIXTURES } from '../pipeline/support/replay-profile.ts'

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

  test("VirNucPro v1's files: ESM-2 builds its model inside its file (32 s, `Extracting` to `ready`), sized by the split", () => {
    const log = readFileSync(join(VIRNUCPRO_FIXTURES, 'v1-1gpu.stdout'), 'utf8')
    const files = progressFromLog(log.split(/\r|\n/)).filter((p) => p.source === 'file-lines')
    const esm = files.find((p) => p.stage === 'ESM-2 Feature Extraction')!
    // 19:24:42 `Extracting ESM-2 features from ...output_1.faa`, 19:25:14 `ESM-2 ready:`, 19:25:22 `Saved (1599)`.
    expect(esm).toMatchObject({ total: 1_599, setupMs: 32_000, itemsPerFile: 10_000, done: [0, 1_599] })
    expect(esm.atMs[1]! - esm.atMs[0]!).toBe(8_000)
    // DNABERT-S loads its model before its `Extracting` line: nothing inside its file to count as a build.
    const dnabert = files.find((p) => p.stage === 'DNABERT-S Feature Extraction')!
    expect(dnabert.setupMs).toBeUndefined()
    expect(dnabert.itemsPerFile).toBe(10_000)
  })

  test("VirNucPro v2's DNABERT-S on 2 GPUs: each worker's files from the dashboard's counts; the slowest bounds the stage", () => {
    const log = readFileSync(join(VIRNUCPRO_FIXTURES, 'v2-2gpu-3750.log'), 'utf8')
    const series = progressFromLog(log.split(/\r|\n/))
    const stage = 'DNABERT-S Feature Extraction'
    const counts = series.filter((p) => p.stage === stage && p.source === 'file-count')
    expect(counts.map(({ worker, total, done }) => ({ worker, total, done }))).toEqual([
      { worker: 1, total: 3_070, done: [1_535, 3_070] },
      { worker: 0, total: 3_073, done: [1_535, 3_070, 3_073] },
    ])
    // The stage took 67.8 s; its workers' processes, model builds and first files 44-45 s of it; each second file 22-23 s.
    const steady = stageSteady(series, stage, 'file-count')!
    expect(steady).toMatchObject({ slowestWorker: 1, source: 'file-count' })
    expect(steady.steadyMs).toBe(46_000)
  })
})
