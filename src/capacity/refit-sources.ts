/**
 * What a refit reads each stored run's in-run rates from (capacity/refit.ts): its record's progress series and monitor
 * summary, completed from what the run directory kept beside them. A record written before a source existed lacks
 * it: the series of sources its progress does not hold come from the run's pipeline log (`target.log`: the pipeline's
 * own timestamps, coarser than the runner's clock), and GPU busy spans its monitor summary does not hold from the
 * monitor's log (`gpu.jsonl`, summarized again). The notes say, per configuration, what came from where.
 */
import type { MonitorSummary } from '../monitor/summary/summarize.ts'
import type { MeasuredRun, ResultRecord, StageProgress } from '../results/schema/index.ts'
import { RATE_SOURCE_NAMES, sourceOf } from './rates.ts'

export interface RunSources {
  /** A run's progress from its pipeline log; null when there is no log to read. */
  progressOf: (run: MeasuredRun, record: ResultRecord) => StageProgress[] | null
  /** A run's monitor summary from its monitor log; null (or absent) when there is none to read. */
  monitorOf?: (run: MeasuredRun, record: ResultRecord) => MonitorSummary | null
  /**
   * The architecture a run's pipeline log names (`Architecture: v1.0 ...`), for records written before the run record
   * kept it (issue 56); null (or absent) where the log says none or is not there.
   */
  architectureOf?: (run: MeasuredRun, record: ResultRecord) => string | null
}

/** The architecture a stored run ran: its record's, else what its configuration asked (checked since), else its log's. */
export function runArchitecture(
  run: MeasuredRun,
  record: ResultRecord,
  sources: Partial<RunSources> = {},
): string | null {
  return (
    run.run.architecture?.architecture ??
    (run.config.architecture as string | undefined) ??
    sources.architectureOf?.(run, record) ??
    null
  )
}

/** How many runs of a configuration read their progress and busy spans from where. */
export interface SourceCount {
  record: number
  merged: number
  log: number
  none: number
  /** Sources read from logs for runs whose record held progress of others. */
  added: Set<string>
  /** Runs whose busy spans came from their gpu.jsonl. */
  monitorLog: number
}

export const newSourceCount = (): SourceCount => ({
  record: 0,
  merged: 0,
  log: 0,
  none: 0,
  added: new Set(),
  monitorLog: 0,
})

/** The record's series, and the log's of every source the record holds none of. */
function progressOf(run: MeasuredRun, record: ResultRecord, sources: RunSources, count: SourceCount) {
  const kept = run.progress ?? []
  const fromLog = sources.progressOf(run, record) ?? []
  const held = new Set(kept.map(sourceOf))
  const added = fromLog.filter((p) => !held.has(sourceOf(p)))
  if (kept.length === 0) count[added.length > 0 ? 'log' : 'none']++
  else if (added.length === 0) count.record++
  else {
    count.merged++
    for (const p of added) count.added.add(RATE_SOURCE_NAMES[sourceOf(p)])
  }
  return added.length === 0 ? kept : [...kept, ...added]
}

/** Whether a monitor summary predates busy spans: a GPU of a stage window without `busySpanMs`. */
export const lacksBusySpans = (gpu: MonitorSummary): boolean =>
  gpu.stages.some((s) => s.gpus.some((g) => (g as { busySpanMs?: unknown }).busySpanMs === undefined))

/** The stored summary with each stage window's GPUs' busy spans taken from `reread` (same log: same windows). */
function withBusySpans(stored: MonitorSummary, reread: MonitorSummary): MonitorSummary {
  const spanOf = (stage: string | null, gpu: number) =>
    reread.stages.find((s) => s.stage === stage)?.gpus.find((g) => g.gpu === gpu)?.busySpanMs ?? null
  return {
    ...stored,
    stages: stored.stages.map((s) => ({
      ...s,
      gpus: s.gpus.map((g) => ({ ...g, busySpanMs: g.busySpanMs ?? spanOf(s.stage, g.gpu) })),
    })),
  }
}

/**
 * The run as the refit reads it: progress and busy spans completed from its logs where its record lacks them (only
 * the busy spans are taken from a monitor log read again: every other figure stays the record's).
 */
export function withKeptSources(
  run: MeasuredRun,
  record: ResultRecord,
  sources: RunSources,
  count: SourceCount,
): MeasuredRun {
  const progress = progressOf(run, record, sources, count)
  const reread = run.gpu && lacksBusySpans(run.gpu) ? (sources.monitorOf?.(run, record) ?? null) : null
  if (reread) count.monitorLog++
  return { ...run, progress, gpu: run.gpu && reread ? withBusySpans(run.gpu, reread) : run.gpu }
}

/** The notes of one configuration: where its runs' progress and busy spans came from. */
export function sourceNotes(label: string, count: SourceCount): string[] {
  const added = [...count.added].join(', ')
  const parts = [
    count.record ? `${count.record} from the records` : '',
    count.merged ? `${count.merged} from the records and their target.log (${added}, which the records lack)` : '',
    count.log
      ? `${count.log} from their target.log (the pipeline's own timestamps, 1 s on its main process: coarser)`
      : '',
    count.none ? `${count.none} with none (none in the record, no log with any): their stages fitted across sizes` : '',
  ].filter(Boolean)
  const notes = [`${label}: progress lines of ${parts.join(', ')}`]
  if (count.monitorLog > 0)
    notes.push(
      `${label}: GPU busy spans of ${count.monitorLog} run(s) from their gpu.jsonl (their records predate them)`,
    )
  return notes
}
