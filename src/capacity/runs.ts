/**
 * One completed run as the size model reads it (src/measure/size-model.ts): its input size in GPU work, and its wall
 * time split into parts (each logged stage, and the time outside every stage: interpreter start-up, imports, exit),
 * plus, for the GPU stages that PERF-02 judges, the GPU-busy time (stage time x mean utilization of the GPUs the run
 * asked for), the start-up before the GPU's work onset (its first batch), and the utilization after it.
 *
 * Why GPU work and not sequences as the size: nested subsets of one input carry its work per record only to a fraction
 * of a percent (nested-order.ts), and a GPU stage's time follows the tokens it embeds, not the record count. A target
 * size in sequences is turned into work with the input's own work per record.
 */

import { stageDurationMs } from '../engine/stage-metrics.ts'
import { type MeasuredRun, PROGRESS_SOURCES } from '../results/schema/index.ts'
import { type GpuWork, gpuWork } from './gpu-work.ts'
import { type FileWork, fileWorkOf } from './per-file.ts'
import { busySteady, type StageSteady, stageSteady } from './rates.ts'
import { type RunMemory, runMemory } from './run-memory.ts'
import { workerItemsOf } from './worker-items.ts'

export const WALL = 'wall'
export const OUTSIDE_STAGES = 'outside stages'
/** The GPU-busy series of a stage: stage time x mean utilization / 100, ms. */
export const busySeries = (stage: string) => `busy: ${stage}`
/** A GPU stage's time before the GPU's work onset (start-up: process, CUDA context, model build, loader), ms. */
export const startupSeries = (stage: string) => `startup: ${stage}`
/** A GPU stage's time from the GPU's work onset to the stage's end, ms. */
export const workSeries = (stage: string) => `work: ${stage}`
/** A stage's steady part inside the run: its batch lines' span, scaled to all its items (capacity/rates.ts), ms. */
export const steadySeries = (stage: string) => `steady: ${stage}`
/** What of a stage its steady part does not hold (model build, work before the first batch, drain), ms. */
export const preSeries = (stage: string) => `pre: ${stage}`
/** A stage's model build, where it builds one per file: ms a file (capacity/builds.ts). */
export const buildsSeries = (stage: string) => `builds: ${stage}`

export interface StageStartup {
  /**
   * ms from the stage's start to the GPU's work onset (its worker's first batch, else the first sample from which it
   * stays busy: monitor/summary/work-onset.ts), on the slowest GPU to start (the stage waits for it).
   */
  startupMs: number
  /** Mean utilization from each GPU's work onset to its work's end, over the GPUs the run asked for. */
  steadyUtilPct: number
  /**
   * `first-busy`: some GPU's figures are from its first busy sample (a record that holds neither the monitor's work
   * figures nor batch lines: capacity/gpu-work.ts), so the steady state holds the wait for the first batch. Absent:
   * from the work's onset.
   */
  steadyFrom?: 'work-onset' | Extract<GpuWork['from'], 'first-busy'>
}

export interface CapacityRun {
  label: string
  size: number
  values: Record<string, number>
  /** Per GPU stage (PERF-02's), where the monitor saw one. */
  startup: Record<string, StageStartup>
  /** Per stage with progress lines: its steady part inside this run (from its configuration's source: capacity/steady.ts). */
  steady: Record<string, StageSteady>
  /** Per stage, every steady part this run gives (one per source, best first); absent: `steady` is all it has. */
  readings?: Record<string, StageSteady[]>
  /** Per stage that built its model once per file, its files (capacity/per-file.ts); absent where none did. */
  files?: Record<string, FileWork>
  /** Its memory peaks (capacity/run-memory.ts); absent in runs built by hand, null without a monitor summary. */
  memory?: RunMemory | null
  /** Per stage with per-worker progress, the smallest worker's items (capacity/worker-items.ts); absent: none. */
  workerItems?: Record<string, number>
}

type StageGpus = NonNullable<MeasuredRun['gpu']>['stages'][number]['gpus']

/** GPUs the run asked for (all sampled GPUs when it asked for none). */
function askedFor(o: MeasuredRun, gpus: StageGpus): StageGpus {
  const requested = o.run.gpusRequested
  return requested ? gpus.filter((g) => requested.includes(g.gpu)) : gpus
}

/**
 * Every steady part the run gives for a stage, best first (RATE_SOURCES), each no longer than the stage: from its
 * progress series, and for a GPU stage from its GPUs' busy spans (tqdm bars only for a CPU stage: a GPU stage's bars
 * count files, and its busy span leaves out the model build that such a bar holds).
 */
function stageReadings(o: MeasuredRun, stage: string, durationMs: number, gpuStage: boolean): StageSteady[] {
  const sources = (['batch-lines', ...PROGRESS_SOURCES] as const).filter((s) => !(gpuStage && s === 'tqdm'))
  const found = sources.map((source) => stageSteady(o.progress, stage, source))
  if (gpuStage) {
    const window = o.gpu?.stages.find((s) => s.stage === stage)
    found.push(window ? busySteady(askedFor(o, window.gpus)) : null)
  }
  return found.filter((r): r is StageSteady => r !== null && r.steadyMs <= durationMs)
}

function gpuStageFigures(o: MeasuredRun, stage: string, durationMs: number) {
  const window = o.gpu?.stages.find((s) => s.stage === stage)
  const gpus = window ? askedFor(o, window.gpus) : []
  const utils = gpus.map((g) => g.metrics.utilPct?.mean).filter((u): u is number => u !== undefined)
  if (gpus.length === 0 || utils.length !== gpus.length) return null
  const busyMs = (durationMs * utils.reduce((a, u) => a + u, 0)) / utils.length / 100
  const work = gpus.map((g) => gpuWork(o, stage, g, durationMs))
  const startup = work.every((w) => w !== null)
    ? {
        startupMs: Math.max(...work.map((w) => w.onsetMs)),
        steadyUtilPct: work.reduce((a, w) => a + w.utilPct, 0) / work.length,
        steadyFrom: work.some((w) => w.from === 'first-busy') ? ('first-busy' as const) : ('work-onset' as const),
      }
    : null
  return { busyMs, startup }
}

/**
 * The run's figures, or null when it did not complete. `size`: the GPU work of the input it ran on.
 * @param gpuStages the stages whose GPU-busy time and start-up are read (thresholds.perf02.stages).
 */
export function capacityRun(o: MeasuredRun, size: number, gpuStages: readonly string[]): CapacityRun | null {
  const run = o.run
  if (run.exitClass !== 'completed') return null
  const values: Record<string, number> = { [WALL]: run.wallMs }
  const startup: Record<string, StageStartup> = {}
  const steady: Record<string, StageSteady> = {}
  const readings: Record<string, StageSteady[]> = {}
  let insideMs = 0
  for (const span of run.stages) {
    const durationMs = stageDurationMs(run, span.name)
    if (durationMs === null) continue
    values[span.name] = durationMs
    insideMs += durationMs
    const found = stageReadings(o, span.name, durationMs, gpuStages.includes(span.name))
    const inside = found[0]
    if (inside) {
      readings[span.name] = found
      steady[span.name] = inside
      values[steadySeries(span.name)] = inside.steadyMs
      values[preSeries(span.name)] = durationMs - inside.steadyMs
    }
    if (!gpuStages.includes(span.name)) continue
    const figures = gpuStageFigures(o, span.name, durationMs)
    if (!figures) continue
    values[busySeries(span.name)] = figures.busyMs
    if (!figures.startup) continue
    startup[span.name] = figures.startup
    const startupMs = Math.min(figures.startup.startupMs, durationMs)
    values[startupSeries(span.name)] = startupMs
    values[workSeries(span.name)] = durationMs - startupMs
  }
  values[OUTSIDE_STAGES] = Math.max(0, run.wallMs - insideMs)
  const files = fileWorkOf(o)
  const workerItems = workerItemsOf(o)
  return {
    label: o.label,
    size,
    values,
    startup,
    steady,
    readings,
    memory: runMemory(o),
    ...(Object.keys(files).length > 0 && { files }),
    ...(Object.keys(workerItems).length > 0 && { workerItems }),
  }
}

/** The series every run has: a stage skipped in one run cannot be fitted over all of them. */
export function commonSeries(runs: readonly CapacityRun[]): string[] {
  const [first, ...rest] = runs
  if (!first) return []
  return Object.keys(first.values).filter((name) => rest.every((r) => name in r.values))
}
