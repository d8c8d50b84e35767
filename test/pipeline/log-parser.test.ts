import { describe, expect, test } from 'vitest'
import type { TargetEvent } from '../../src/pipeline/events.ts'
import { createLogParser, parseStageExtras } from '../../src/pipeline/log-parser.ts'

/** A run's stdout in the exact upstream format (UPSTREAM.md "Log lines"; pipeline_telemetry.py's summary). */
const GOLDEN = `2026-11-22 10:00:00 - virnucpro.pipeline.telemetry - INFO - === Stage 1: Sequence Chunking ===
2026-11-22 10:00:01 - virnucpro.pipeline.telemetry - INFO -   Sequence Chunking completed in 1.2s [sequences: 12,345, files: 1]
2026-11-22 10:00:01 - virnucpro.pipeline.telemetry - INFO - === Stage 2: Six-Frame Translation ===
2026-11-22 10:00:02 - virnucpro.pipeline.parallel_translate - INFO - Translation complete: processed 74,070 sequences in 0.8s (92,588 seq/s)
2026-11-22 10:00:02 - virnucpro.pipeline.telemetry - INFO -   Six-Frame Translation completed in 0.9s [skipped (checkpoint)]
2026-11-22 10:00:02 - virnucpro.pipeline.telemetry - INFO - === Stage 6: ESM-2 Feature Extraction ===
2026-11-22 10:00:03,512 - Worker 1 - virnucpro.pipeline.gpu_worker - INFO - Batch 3: 1,536/20,000 (7.7%) | 90.4% pack eff, 16,474 tok/s, 321.5 seq/s, ETA: 0:00:57
2026-11-22 10:00:04,001 - Worker 0 - virnucpro.pipeline.gpu_worker - ERROR - torch.OutOfMemoryError: CUDA out of memory. Tried to allocate 2.00 GiB
2026-11-22 10:00:05 - virnucpro.pipeline.async_inference - INFO - Async inference complete: 20,000 sequences, 321.5 seq/s, 16,474 tokens/s
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO -   ESM-2 Feature Extraction completed in 2591.1s [sequences: 20,000, architecture: v2.0]
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - 
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - ================================================================================
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - PIPELINE SUMMARY
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - ================================================================================
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - Total wall time: 00:43:15 (2595.0s)
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - 
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - Stages:
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO -   1. Sequence Chunking ............  1.2s (  0.0%)
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO -   2. Six-Frame Translation ........  skipped
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO -   3. ESM-2 Feature Extraction .....  2591.1s ( 99.9%)
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - 
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - Bottlenecks: ESM-2 Feature Extraction (100%)
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - 
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - Key metrics:
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO -   Sequences processed: 32,345
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO -   ESM-2 architecture: v2.0 (async DataLoader + FlashAttention)
2026-11-22 10:00:05 - virnucpro.pipeline.telemetry - INFO - ================================================================================`

function parseAll(text: string): TargetEvent[] {
  const parser = createLogParser()
  return text.split('\n').flatMap((line, i) => parser.push(line, i))
}

describe('log parser, golden upstream log', () => {
  const events = parseAll(GOLDEN)

  test('emits the events in log order', () => {
    expect(events.map((e) => e.type)).toEqual([
      'stage-start',
      'stage-end',
      'stage-start',
      'translation-rate',
      'stage-end',
      'stage-start',
      'worker',
      'batch',
      'worker',
      'oom',
      'inference-complete',
      'stage-end',
      'summary',
    ])
  })

  test('reads stage starts and ends with their index, duration and extras', () => {
    expect(events[0]).toEqual({ type: 'stage-start', index: 1, name: 'Sequence Chunking', atMs: 0 })
    expect(events[1]).toEqual({
      type: 'stage-end',
      name: 'Sequence Chunking',
      index: 1,
      durationS: 1.2,
      skippedReason: null,
      extras: { sequences: 12345, files: 1 },
      atMs: 1,
    })
    expect(events[4]).toMatchObject({ type: 'stage-end', index: 2, skippedReason: 'checkpoint', extras: {} })
    expect(events[11]).toMatchObject({ durationS: 2591.1, extras: { sequences: 20000, architecture: 'v2.0' } })
  })

  test('reads batch progress from a worker line with rates and ETA', () => {
    expect(events[7]).toEqual({
      type: 'batch',
      batch: 3,
      done: 1536,
      total: 20000,
      percent: 7.7,
      packEfficiency: 0.904,
      tokensPerS: 16474,
      sequencesPerS: 321.5,
      eta: '0:00:57',
      worker: 1,
      atMs: 6,
    })
  })

  test('reads translation and inference rates', () => {
    expect(events[3]).toMatchObject({ sequences: 74070, durationS: 0.8, sequencesPerS: 92588 })
    expect(events[10]).toMatchObject({ sequencesPerS: 321.5, tokensPerS: 16474, worker: null })
  })

  test("reads a stage's own progress line (the reference pipeline's DNABERT-S), on the main process or a worker", () => {
    const parser = createLogParser()
    const main = parser.push(
      '2026-11-24 12:38:32 - refpipe.pipeline.dnabert - INFO - DNABERT-S progress: 1,527/1,565 (97.6%) | 84.2% pack eff, 775,966 tok/s, 1603.7 seq/s',
      12.5,
    )
    expect(main).toEqual([{ type: 'progress', label: 'DNABERT-S', done: 1527, total: 1565, worker: null, atMs: 12.5 }])
    const worker = parser.push(
      '2026-11-24 12:38:32 - Worker 1 - refpipe.pipeline.dnabert - INFO - DNABERT-S progress: 20/40 (50.0%) | 90.0% pack eff, 1 tok/s, 1.0 seq/s',
      13,
    )
    expect(worker.at(-1)).toEqual({ type: 'progress', label: 'DNABERT-S', done: 20, total: 40, worker: 1, atMs: 13 })
    expect(parser.push('DNABERT-S extraction complete: 1565 sequences, 1598.7 seq/s, 763368 tokens/s', 14)).toEqual([])
  })

  test('flags a CUDA OOM line with its worker', () => {
    expect(events[9]).toMatchObject({ type: 'oom', worker: 0 })
    expect(events[8]).toMatchObject({ type: 'worker', rank: 0, level: 'ERROR' })
  })

  test('reads the summary block', () => {
    const summary = events.at(-1)
    expect(summary?.type === 'summary' && summary.summary).toEqual({
      totalWallS: 2595,
      totalWallHms: '00:43:15',
      stages: [
        { index: 1, name: 'Sequence Chunking', durationS: 1.2, percent: 0 },
        { index: 2, name: 'Six-Frame Translation', durationS: null, percent: null },
        { index: 3, name: 'ESM-2 Feature Extraction', durationS: 2591.1, percent: 99.9 },
      ],
      bottlenecks: [{ name: 'ESM-2 Feature Extraction', percent: 100 }],
      metrics: { 'Sequences processed': 32345, 'ESM-2 architecture': 'v2.0 (async DataLoader + FlashAttention)' },
      // The input's sequences: Sequence Chunking's; the printed 32,345 sums every stage's `sequences` extra.
      sequencesProcessed: 12345,
    })
  })

  test('emits no summary when the block is cut before its closing rule', () => {
    const cut = GOLDEN.split('\n').slice(0, -1).join('\n')
    expect(parseAll(cut).some((e) => e.type === 'summary')).toBe(false)
  })

  test('reads lines printed without the logging prefix', () => {
    expect(parseAll('=== Stage 4: Protein File Splitting ===')).toEqual([
      { type: 'stage-start', index: 4, name: 'Protein File Splitting', atMs: 0 },
    ])
  })

  test('gives a stage-end without a matching start a null index', () => {
    expect(parseAll('  Feature Merging completed in 3.0s')[0]).toMatchObject({ type: 'stage-end', index: null })
  })
})

describe('parseStageExtras', () => {
  test('rejects a part that is neither key: value nor skipped (reason)', () => {
    expect(parseStageExtras('sequences: 1, oops')).toBeNull()
  })
})
