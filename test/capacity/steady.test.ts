import { describe, expect, test } from 'vitest'
import { type CapacityRun, capacityRun } from '../../src/capacity/runs.ts'
import { withCommonSources } from '../../src/capacity/steady.ts'
import type { MonitorSummary } from '../../src/monitor/summary/summarize.ts'
import type { StageSpan } from '../../src/pipeline/stage-spans.ts'
import type { MeasuredRun, StageProgress } from '../../src/results/schema/index.ts'
import { sampleRunRecord } from '../support/result-records.ts'

const ESM2 = 'ESM-2 Feature Extraction'
const DNABERT = 'DNABERT-S Feature Extraction'
const TRANSLATION = 'Six-Frame Translation'
const GPU_STAGES = [DNABERT, ESM2]

const span = (name: string, startMs: number, durationMs: number): StageSpan => ({
  index: null,
  name,
  startMs,
  endMs: startMs + durationMs,
  receivedDurationMs: durationMs,
  logDurationS: durationMs / 1000,
  summaryDurationS: null,
  skippedReason: null,
  extras: {},
})

const series = (
  stage: string,
  source: StageProgress['source'],
  atMs: number[],
  done: number[],
  worker: number | null,
) =>
  ({ stage, ...(source && { source }), worker, total: done.at(-1)!, lines: atMs.length, atMs, done }) as StageProgress

/** A monitor summary whose GPU stages each GPU worked `busySpanMs` of (undefined: a record before busy spans). */
function gpuSummary(busy: Record<string, (number | undefined)[]>): MonitorSummary {
  const stages = Object.entries(busy).map(([stage, spans]) => ({
    stage,
    gpus: spans.map((busySpanMs, gpu) => ({
      gpu,
      metrics: { utilPct: { mean: 80 } },
      leadingIdleMs: 1_000,
      steadyUtilPct: 90,
      ...(busySpanMs !== undefined && { busySpanMs }),
    })),
  }))
  return { stages } as unknown as MonitorSummary
}

/** A VirNucPro-like run: Translation (CPU), DNABERT-S and ESM-2 (GPU), with `progress` and busy spans on 2 GPUs. */
function run(progress: StageProgress[], busy: Record<string, (number | undefined)[]> = {}): MeasuredRun {
  const stages = [span(TRANSLATION, 0, 6_000), span(DNABERT, 6_000, 40_000), span(ESM2, 46_000, 50_000)]
  return {
    label: 'r',
    config: {},
    warmup: false,
    run: sampleRunRecord({ wallMs: 100_000, stages, gpusRequested: [0, 1] }),
    gpu: gpuSummary(busy),
    progress,
  }
}

const batches = (worker: number) =>
  series(ESM2, undefined, [60_000, 70_000, 80_000, 90_000], [200, 400, 600, 800], worker)
const workerSpan = (worker: number, ms: number) => series(ESM2, 'worker-span', [50_000, 50_000 + ms], [0, 800], worker)

describe('the sources of a stage steady part in one run', () => {
  test('every source a stage has, best first; tqdm for a CPU stage only, busy spans for a GPU stage only', () => {
    const r = capacityRun(
      run(
        [
          series(TRANSLATION, 'tqdm', [200, 5_900], [0, 2_152], null),
          series(DNABERT, 'tqdm', [6_100, 45_000], [0, 1], null),
          batches(0),
          batches(1),
          workerSpan(0, 40_000),
          workerSpan(1, 42_000),
        ],
        { [DNABERT]: [30_000, 31_000], [ESM2]: [41_000, 43_000] },
      ),
      1_000,
      GPU_STAGES,
    )!
    const sources = (stage: string) => r.readings![stage]!.map((s) => [s.source, Math.round(s.steadyMs)])
    expect(sources(TRANSLATION)).toEqual([['tqdm', 5_700]])
    expect(sources(DNABERT)).toEqual([['nvml-busy', 31_000]])
    expect(sources(ESM2)).toEqual([
      ['batch-lines', 40_000],
      ['worker-span', 42_000],
      ['nvml-busy', 43_000],
    ])
    // The run's own best: its steady and pre parts.
    expect(r.values[`steady: ${ESM2}`]).toBe(40_000)
    expect(r.values[`pre: ${ESM2}`]).toBe(10_000)
    expect(r.steady[DNABERT]).toMatchObject({ source: 'nvml-busy', slowestWorker: 1 })
  })

  test('a reading longer than its stage is none (clocks apart); a record without busy spans has none of them', () => {
    const r = capacityRun(run([workerSpan(0, 60_000)], { [DNABERT]: [undefined, 30_000] }), 1_000, GPU_STAGES)!
    expect(r.readings).toEqual({})
    expect(Object.keys(r.values).filter((k) => k.startsWith('steady'))).toEqual([])
  })
})

describe('one source for all the runs of a configuration', () => {
  const small = (size: number) => capacityRun(run([workerSpan(0, 9_000), workerSpan(1, 9_500)]), size, GPU_STAGES)!
  const large = (size: number) =>
    capacityRun(run([batches(0), batches(1), workerSpan(0, 41_000), workerSpan(1, 42_000)]), size, GPU_STAGES)!

  test('batch lines in the large runs only: every run is read from worker spans, which all have', () => {
    const runs = withCommonSources([small(1_000), small(1_000), large(4_000), large(4_000)])
    expect(runs.map((r) => [r.steady[ESM2]!.source, r.values[`steady: ${ESM2}`]])).toEqual([
      ['worker-span', 9_500],
      ['worker-span', 9_500],
      ['worker-span', 42_000],
      ['worker-span', 42_000],
    ])
    // pre + steady is still the stage.
    for (const r of runs) expect(r.values[`pre: ${ESM2}`]! + r.values[`steady: ${ESM2}`]!).toBe(r.values[ESM2])
  })

  test('no source in every run: the one most runs have, and the others give the stage no steady part', () => {
    const bare = capacityRun(run([]), 1_000, GPU_STAGES)!
    const runs = withCommonSources([bare, large(4_000), large(4_000)])
    expect(runs.map((r) => r.steady[ESM2]?.source ?? null)).toEqual([null, 'batch-lines', 'batch-lines'])
    expect(`steady: ${ESM2}` in runs[0]!.values).toBe(false)
  })

  test('runs built without readings keep their one steady part', () => {
    const plain: CapacityRun = {
      label: 'x',
      size: 1,
      values: { wall: 10, S: 8, 'steady: S': 6, 'pre: S': 2 },
      startup: {},
      steady: { S: { steadyMs: 6, lines: 9, slowestWorker: null, source: 'batch-lines' } },
    }
    expect(withCommonSources([plain])[0]!.values).toEqual(plain.values)
  })
})
