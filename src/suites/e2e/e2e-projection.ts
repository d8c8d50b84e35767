/**
 * The one projection of a measured run on N sequences to M sequences (the e2e suite's PERF-01 projection and the
 * validation campaign's "subset predicts the full run" check both call it). The wall time (spawn to exit) is split
 * into parts, each fixed, proportional to the input, or both (src/measure/projection-parts.ts):
 * - outside every stage span (interpreter start-up and imports, ~3-4.5 s on an H200, and exit): fixed;
 * - ESM-2: its batch events give the steady rate; the rest of the stage (model build, first-batch warm-up) is fixed;
 *   sharded over k GPUs, each worker's own rate is fitted and the slowest (rate over its share) bounds the stage
 *   (work a worker does after its last batch line, such as refpipe's `imbalance` repeats, logs no progress and lands in
 *   the fixed part: the size model of the capacity suite, fitted over whole runs at two sizes, sees it);
 * - DNABERT-S (no batch lines upstream): fixed until the GPU gets work, i.e. the first monitor sample in the stage
 *   at >= ONSET_UTIL_PCT (50%) utilization (context, model build, first-batch warm-up), proportional after it (steady
 *   batches and the slow tail of short padded batches, whose count grows with the input). Without a monitor
 *   series the split is unknown and the stage is taken as proportional, which over-predicts by about
 *   (M / N - 1) x its start-up (~0.9 s on an H200: +40% at 500 -> 5,000);
 * - Model Prediction: fixed (it builds the classifier once; the MLP's pass over N feature rows is ~20-30 ms per
 *   1,000 sequences, which this leaves out);
 * - every other stage: proportional (CPU passes over the data).
 * The CI covers within-run variation only (ESM-2 batch to batch, the monitor's 100 ms resolution of the onset); not
 * run-to-run variation of start-up (2.8-5.2 s across 70 H200 runs) or tail stalls, nor an input whose work per
 * sequence differs from the measured run's (another length distribution, or another share of stop-free frames: a
 * subset to project from is best sampled by work, `fixtures sample --stratify work`). Known bias: a pipeline that
 * sorts proteins by length into token-budget batches packs the short ones tighter in a larger input, which the
 * measured run cannot show; 1,000 -> 10,000 records on an H200 over-projected ESM-2 by ~3% of its stage (VALIDATION.md).
 */
import { existsSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import type { Thresholds } from '../../config/thresholds.ts'
import type { RunObservation } from '../../engine/observe-run.ts'
import { stageDurationMs } from '../../engine/stage-metrics.ts'
import {
  createRandomSource,
  type ProgressEvent,
  type ProjectedTime,
  type ProjectionTarget,
  projectTo,
} from '../../measure/index.ts'
import { type GpuOnset, gpuOnsets } from '../../measure/projection-onset.ts'
import { fitPartsProjection, type PartFit, type WallPart } from '../../measure/projection-parts.ts'
import { parseMonitorLog } from '../../monitor/log-reader.ts'
import type { MonitorRecord } from '../../monitor/records.ts'

const ESM2 = 'ESM-2 Feature Extraction'
const DNABERT = 'DNABERT-S Feature Extraction'

/** How each stage of the VirNucPro contract scales (UPSTREAM.md); stages not named here are proportional. */
export const STAGE_SCALING: Readonly<Record<string, 'gpu-work' | 'fixed'>> = {
  [DNABERT]: 'gpu-work',
  [ESM2]: 'gpu-work',
  'Model Prediction': 'fixed',
}

export const OUTSIDE_STAGES = 'outside stages'

/** What the projection's CI covers, for reports. */
export const PROJECTION_COVERS =
  'within-run variation: ESM-2 batch-to-batch rate, monitor resolution of the DNABERT-S onset; not run-to-run start-up or input mix'

export interface E2eProjection {
  fromRun: string
  inputSequences: number
  method: 'staged-parts'
  esm2: {
    /** The ESM-2 stage's fixed part: duration - N / rate. */
    fixedMs: number
    fixedCi: { low: number; high: number }
    /** Steady rate, input sequences per second (sharded over workers: what the slowest worker allows). */
    ratePerS: number
    rateCi: { low: number; high: number }
    eventsUsed: number
    /** Workers whose own rates were fitted (1: the run's summed progress). */
    workers: number
  }
  /** Per-sequence time of every part but ESM-2. */
  restMsPerSequence: number
  /** Each part's fixed time and per-sequence time. */
  parts: Omit<PartFit, 'progress'>[]
  covers: string
  projections: ProjectedTime[]
}

export type ProjectionOutcome =
  | { state: 'projected'; projection: E2eProjection }
  | { state: 'not-projected'; reason: string }

/** ESM-2 batches as progress in input sequences, on the ESM-2 stage's clock; workers' progress summed. */
export function progressEvents(o: RunObservation, inputSequences: number): ProgressEvent[] {
  const start = o.measured.run.stages.find((s) => s.name === ESM2)?.startMs ?? 0
  const done = new Map<number, number>()
  const total = new Map<number, number>()
  const events: ProgressEvent[] = []
  for (const b of o.esm2Batches) {
    done.set(b.worker ?? -1, b.done)
    total.set(b.worker ?? -1, b.total)
    const proteins = [...done.values()].reduce((a, v) => a + v, 0)
    const allProteins = [...total.values()].reduce((a, v) => a + v, 0)
    const last = events.at(-1)
    const point = { tMs: b.atMs - start, done: (proteins * inputSequences) / Math.max(1, allProteins) }
    if (!last || (point.done > last.done && point.tMs >= last.tMs)) events.push(point)
  }
  return events
}

/** The run's monitor records (gpu.jsonl beside its target.log, as observeRun writes them); null without one. */
export function monitorRecordsOf(o: RunObservation): MonitorRecord[] | null {
  const logPath = o.measured.run.logPath
  if (!logPath) return null
  const path = join(dirname(logPath), 'gpu.jsonl')
  if (!existsSync(path)) return null
  return parseMonitorLog(readFileSync(path, 'utf8'), path).records
}

/** Fewest batch events per worker to fit a worker's own rate (as the single-series projection asks of a run). */
const MIN_WORKER_EVENTS = 4

/**
 * ESM-2 progress per worker, each in input sequences of its shard (its proteins x N / all proteins), and its share of
 * all proteins; null unless at least two workers logged enough batch lines to fit each one's rate.
 */
export function workerProgress(o: RunObservation, inputSequences: number) {
  const start = o.measured.run.stages.find((s) => s.name === ESM2)?.startMs ?? 0
  const byWorker = new Map<number, typeof o.esm2Batches>()
  for (const b of o.esm2Batches) {
    if (b.worker === null) continue
    byWorker.set(b.worker, [...(byWorker.get(b.worker) ?? []), b])
  }
  const totals = [...byWorker.values()].map((bs) => bs.at(-1)!.total)
  const allProteins = totals.reduce((a, t) => a + t, 0)
  if (byWorker.size < 2 || allProteins <= 0) return null
  const workers = [...byWorker.values()].map((batches) => {
    const events: ProgressEvent[] = []
    for (const b of batches) {
      const point = { tMs: b.atMs - start, done: (b.done * inputSequences) / allProteins }
      const last = events.at(-1)
      if (!last || (point.done > last.done && point.tMs >= last.tMs)) events.push(point)
    }
    return { events, share: batches.at(-1)!.total / allProteins }
  })
  return workers.every((w) => w.events.length >= MIN_WORKER_EVENTS) ? workers : null
}

function stagePart(
  name: string,
  durationMs: number,
  esm2: ProgressEvent[],
  onset: GpuOnset | undefined,
  workers: ReturnType<typeof workerProgress>,
): WallPart {
  const kind = STAGE_SCALING[name]
  if (kind === 'fixed') return { name, durationMs, scaling: { kind: 'fixed' } }
  // Sharded over GPUs: the slowest worker bounds the stage; the summed rate would assume perfect balance.
  if (kind === 'gpu-work' && name === ESM2 && workers)
    return { name, durationMs, scaling: { kind: 'workers', workers } }
  if (kind === 'gpu-work' && name === ESM2) return { name, durationMs, scaling: { kind: 'progress', events: esm2 } }
  if (kind === 'gpu-work' && onset) return { name, durationMs, scaling: { kind: 'onset', ...onset } }
  return { name, durationMs, scaling: { kind: 'proportional' } }
}

/** The run's wall time as parts: every timed stage, then the time outside them. */
export function wallParts(o: RunObservation, monitor: readonly MonitorRecord[] | null, inputSequences: number) {
  const run = o.measured.run
  const onsets = monitor ? gpuOnsets(monitor, run.gpusUsed ?? run.gpusRequested) : new Map<string, GpuOnset>()
  const esm2 = progressEvents(o, inputSequences)
  const workers = workerProgress(o, inputSequences)
  const parts: WallPart[] = []
  for (const span of run.stages) {
    const durationMs = stageDurationMs(run, span.name)
    if (durationMs !== null) parts.push(stagePart(span.name, durationMs, esm2, onsets.get(span.name), workers))
  }
  const insideMs = parts.reduce((a, p) => a + p.durationMs, 0)
  parts.push({ name: OUTSIDE_STAGES, durationMs: Math.max(0, run.wallMs - insideMs), scaling: { kind: 'fixed' } })
  return { parts, esm2Events: esm2.length }
}

/**
 * Projects `o` (a completed run) to each target. `monitor`: the run's monitor records (default: read from beside
 * its log). Not projected without a sequence count or with fewer than 4 ESM-2 batch events.
 */
export function projectObservation(
  o: RunObservation,
  targets: readonly ProjectionTarget[],
  seed: string,
  monitor: readonly MonitorRecord[] | null = monitorRecordsOf(o),
): ProjectionOutcome {
  const inputSequences = o.measured.run.summary?.sequencesProcessed ?? null
  if (!inputSequences) return { state: 'not-projected', reason: 'the run printed no sequence count' }
  const { parts, esm2Events } = wallParts(o, monitor, inputSequences)
  if (esm2Events < 4) return { state: 'not-projected', reason: `${esm2Events} ESM-2 batch event(s); need >= 4` }
  const model = fitPartsProjection(parts, inputSequences, { random: createRandomSource(seed) })
  const esm2Part = model.parts.find((p) => p.progress)!
  const esm2Model = esm2Part.progress!
  // The stage's rate: its slowest worker's over that worker's share (the whole rate for one worker).
  const share = esm2Part.workers?.[esm2Part.slowestWorker ?? 0]?.share ?? 1
  const stageRate = (workerRate: number) => workerRate / share
  const fixedAt = (ratePerS: number) => esm2Part.durationMs - (inputSequences * 1000) / stageRate(ratePerS)
  return {
    state: 'projected',
    projection: {
      fromRun: o.measured.label,
      inputSequences,
      method: 'staged-parts',
      esm2: {
        fixedMs: esm2Part.fixedMs,
        fixedCi: { low: fixedAt(esm2Model.ratePerSecond.ci.low), high: fixedAt(esm2Model.ratePerSecond.ci.high) },
        ratePerS: stageRate(esm2Model.ratePerSecond.estimate),
        rateCi: { low: stageRate(esm2Model.ratePerSecond.ci.low), high: stageRate(esm2Model.ratePerSecond.ci.high) },
        eventsUsed: esm2Model.eventsUsed,
        workers: esm2Part.workers?.length ?? 1,
      },
      restMsPerSequence: model.fit.msPerSequence - esm2Part.msPerSequence,
      parts: model.parts.map(({ progress: _progress, workers: _workers, ...part }) => part),
      covers: PROJECTION_COVERS,
      projections: targets.map((target) => projectTo(model, target)),
    },
  }
}

/** Projects `o` (a completed run) to the thresholds' typical and production sizes. */
export function projectRun(o: RunObservation, t: Thresholds, seed: string): ProjectionOutcome {
  const targets = [t.perf01.typicalSequences, t.perf01.productionSequences].map((sequences) => ({
    sequences,
    targetMs: t.perf01.targetMs,
    tolerance: t.perf01.tolerance,
  }))
  return projectObservation(o, targets, seed)
}
