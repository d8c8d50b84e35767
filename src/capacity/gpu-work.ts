/**
 * One GPU's work in a stage as PERF-02's steady state reads it: where it starts (ms from the stage's start) and the
 * GPU's utilization from there to the work's end (monitor/summary/work-onset.ts), from what the record holds:
 * - `work-onset`: the monitor's own figures (its worker's first batch, else the first sample from which the GPU
 *   stays busy);
 * - `work-span`: a record whose summary predates those figures but whose progress holds the worker's batch lines: the
 *   span from its first batch to its end (engine/work-spans.ts), all the stage's busy time counted inside it (mean
 *   utilization x stage time over the span). The blip of a model's move to the GPU before the span counts too, so it
 *   reads a little high: a fallback for records kept before, which the summary alone cannot split;
 * - `first-busy`: neither: from the first busy sample (a model's move to the GPU, long before its first batch), as
 *   records were read before. Its steady state holds the wait for the first batch: the projection is not held at it.
 */
import { workSpansOf } from '../engine/work-spans.ts'
import type { WorkFigures } from '../monitor/summary/work-onset.ts'
import type { MeasuredRun } from '../results/schema/index.ts'

export type GpuWorkSource = 'work-onset' | 'work-span' | 'first-busy'

export interface GpuWork {
  onsetMs: number
  utilPct: number
  from: GpuWorkSource
}

type StageGpu = NonNullable<MeasuredRun['gpu']>['stages'][number]['gpus'][number]

/** Steady utilization from the first busy sample (records written before the monitor kept it: from the idle lead). */
function fromFirstBusy(g: StageGpu, durationMs: number): GpuWork | null {
  const lead = g.leadingIdleMs
  if (lead === null) return null
  const kept = (g as { steadyUtilPct?: number | null }).steadyUtilPct
  if (typeof kept === 'number') return { onsetMs: lead, utilPct: kept, from: 'first-busy' }
  const mean = g.metrics.utilPct?.mean
  if (mean === undefined || lead >= durationMs) return null
  return { onsetMs: lead, utilPct: (mean * durationMs) / (durationMs - lead), from: 'first-busy' }
}

/** The stage's busy time over the worker's span, from its progress lines; null without a span of this GPU. */
function fromProgress(o: MeasuredRun, stage: string, g: StageGpu, durationMs: number): GpuWork | null {
  const span = workSpansOf(o.progress ?? [], o.run).find((s) => s.stage === stage && s.gpu === g.gpu)
  const mean = g.metrics.utilPct?.mean
  if (!span || mean === undefined) return null
  const workMs = Math.min(durationMs, span.endMs ?? durationMs) - span.startMs
  if (!(workMs > 0)) return null
  return { onsetMs: span.startMs, utilPct: Math.min(100, (mean * durationMs) / workMs), from: 'work-span' }
}

/** GPU `g`'s work in `stage` of the run (its window `durationMs` long), from the best the record holds. */
export function gpuWork(o: MeasuredRun, stage: string, g: StageGpu, durationMs: number): GpuWork | null {
  const kept = g as Partial<WorkFigures>
  if (typeof kept.workOnsetMs === 'number' && typeof kept.workUtilPct === 'number')
    return { onsetMs: kept.workOnsetMs, utilPct: kept.workUtilPct, from: 'work-onset' }
  return fromProgress(o, stage, g, durationMs) ?? fromFirstBusy(g, durationMs)
}
