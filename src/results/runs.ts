/** Small shared readings of result records: which runs count, their GPU count, their stage times. */
import { median } from '../measure/estimators.ts'
import { toSorted } from '../measure/samples.ts'
import type { MeasuredRun, Provenance, ResultRecord } from './schema/index.ts'

export interface CountedRun {
  recordId: string
  /** The run's label without its repeat suffix (`2 GPUs #3` -> `2 GPUs`): repeated runs of one setup share it. */
  group: string
  index: number
  measured: MeasuredRun
}

/** Label without a trailing ` #n` repeat number. */
export function groupOf(label: string, config?: Readonly<Record<string, unknown>>): string {
  // The suites record the setup's name in config.setup; older records only have run labels such as `1 GPU run 2`,
  // `1 GPU warm-up 1` or `1 GPU #2`, whose repeat suffix is dropped.
  if (typeof config?.setup === 'string') return config.setup
  return label.replace(/\s+(?:run|warm-up)\s+\d+$|\s*#\d+$/, '')
}

/**
 * Non-warmup runs of completed records, in record order (warmups are kept in records but never counted); with
 * `partial`, a partial record's kept runs too (a measurement stopped mid-way: its figures shown as provisional).
 */
export function countedRuns(records: readonly ResultRecord[], partial = false): CountedRun[] {
  const out: CountedRun[] = []
  for (const record of records) {
    if (record.state !== 'completed' && !(partial && record.state === 'partial')) continue
    record.runs.forEach((measured, index) => {
      if (!measured.warmup)
        out.push({ recordId: record.id, group: groupOf(measured.label, measured.config), index, measured })
    })
  }
  return out
}

/** GPUs of a run: `config.gpus` when it is a list, else the GPUs requested, else the GPUs the monitor sampled, else 1. */
export function gpuCountOf(run: MeasuredRun): number {
  const configured = run.config.gpus
  if (Array.isArray(configured)) return configured.length
  if (typeof configured === 'number') return configured
  // A CPU stand-in run asks for no GPU: the sampled (fake) GPUs say nothing about its parallelism, its workers do.
  if (run.config.device === 'cpu') return typeof run.config.cpuWorkers === 'number' ? run.config.cpuWorkers : 1
  return run.run.gpusRequested?.length ?? run.gpu?.requestedGpus.length ?? 1
}

/** Stage durations (ms) of a run: our clock's span where known, else the log's own duration. Skipped stages are out. */
export function stageDurationsMs(run: MeasuredRun): { stage: string; durationMs: number }[] {
  const out: { stage: string; durationMs: number }[] = []
  for (const span of run.run.stages) {
    if (span.skippedReason !== null) continue
    const ms = span.receivedDurationMs ?? (span.logDurationS === null ? null : span.logDurationS * 1000)
    if (ms !== null) out.push({ stage: span.name, durationMs: ms })
  }
  return out
}

/** Median through the one statistics module; null for no values. */
export function medianOf(values: readonly number[], what = 'values'): number | null {
  return values.length === 0 ? null : median(toSorted(values, what))
}

/** The counted runs of one setup, and every record that holds exactly these runs. */
export interface RunGroup {
  /** The first record holding them (its thresholds judge them). */
  record: ResultRecord
  runs: CountedRun[]
  /** Every record holding these same runs, first-seen order; `record.id` first. */
  recordIds: string[]
  /** The runs of a partial record (a measurement stopped mid-way): what they show is provisional, never counted. */
  provisional: boolean
}

/**
 * What makes a run this run and no other: its pipeline log (one per run, in the run's own folder) and its start time
 * (a log path reused by a later invocation is another run). Suites that share runs through the run cache hand out
 * the very same records, log path included. null when the run has no log path (hand-made or older records): such
 * runs are never taken for the same as any other.
 */
function runIdentity(run: CountedRun): string | null {
  const { logPath, startedAt } = run.measured.run
  return logPath ? `${logPath}\u0000${startedAt}` : null
}

/** The key of a group's run set: equal for two groups exactly when they hold the same runs; null when unknown. */
function runSetKey(runs: readonly CountedRun[]): string | null {
  const ids: string[] = []
  for (const run of runs) {
    const id = runIdentity(run)
    if (id === null) return null
    ids.push(id)
  }
  return ids.sort().join('\u0001')
}

/**
 * Counted runs grouped by record and setup, in first-seen order: what the per-setup analyses (bottleneck, PERF-02,
 * memory) read. Groups of different records that hold the same runs (the scaling suite's 1-GPU arm and the stage
 * suite, sharing runs through the run cache) are one group naming every record, so no row is counted twice.
 * buildReport makes it once and hands it to each of them. `partial`: a partial record's kept runs too, their groups
 * marked provisional (bottleneck.md and PERF-02 show what an interrupted measurement kept, never count it).
 */
export function runGroups(records: readonly ResultRecord[], partial = false): RunGroup[] {
  const byId = new Map(records.map((r) => [r.id, r]))
  const groups = groupBy(countedRuns(records, partial), (r) => `${r.recordId}\u0000${r.group}`)
  const bySet = new Map<string, RunGroup>()
  const out: RunGroup[] = []
  for (const runs of groups.values()) {
    const recordId = (runs[0] as CountedRun).recordId
    const key = runSetKey(runs)
    const same = key === null ? undefined : bySet.get(key)
    if (same) {
      if (!same.recordIds.includes(recordId)) same.recordIds.push(recordId)
      continue
    }
    const record = byId.get(recordId) as ResultRecord
    const group: RunGroup = { record, runs, recordIds: [recordId], provisional: record.state === 'partial' }
    if (key !== null) bySet.set(key, group)
    out.push(group)
  }
  return out
}

/** Groups items by a key, keeping first-seen order. */
export function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const map = new Map<string, T[]>()
  for (const item of items) {
    const k = key(item)
    const list = map.get(k)
    if (list) list.push(item)
    else map.set(k, [item])
  }
  return map
}

/**
 * The GPU model a record ran on: NVML's names (distinct, in index order, joined with ' + '), or `no GPU`. One name for
 * the history's series keys, the shard records and the fleet report's per-model comparison.
 */
export function gpuModelOf(provenance: Provenance): string {
  const { nvml } = provenance
  if (!nvml.available || nvml.gpus.length === 0) return 'no GPU'
  return [...new Set(nvml.gpus.map((g) => g.name))].join(' + ')
}
