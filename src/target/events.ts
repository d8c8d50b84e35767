/**
 * Typed events read from a pipeline's log stream (docs/UPSTREAM.md, "Log lines"). Every event carries `atMs`, the
 * harness's monotonic receive time relative to the run start, so stage spans can be measured on our clock as well as
 * read from the log's own durations.
 */

/** A value from a stage-end `[key: value, ...]` list: ints lose their thousands separators, the rest stay text. */
export type StageExtraValue = number | string

export interface StageStartEvent {
  type: 'stage-start'
  /** 1-based stage number printed by `=== Stage {n}: {name} ===`. */
  index: number
  name: string
  atMs: number
}

export interface StageEndEvent {
  type: 'stage-end'
  name: string
  /** Index of the matching stage-start, or null when the log never announced this stage. */
  index: number | null
  /** The log's own duration, `{s:.1f}` (0.1 s resolution); null when it is a number no double holds (a read-error). */
  durationS: number | null
  /** Why the stage was skipped (`skipped (checkpoint)` -> 'checkpoint'), or null when it ran. */
  skippedReason: string | null
  extras: Record<string, StageExtraValue>
  atMs: number
}

export interface BatchEvent {
  type: 'batch'
  batch: number
  done: number
  total: number
  percent: number
  /** Packing efficiency as a fraction (the log prints `{eff:.1%}`). */
  packEfficiency: number
  tokensPerS: number
  sequencesPerS: number
  eta: string
  worker: number | null
  atMs: number
}

/**
 * A stage's own progress line other than ESM-2's `Batch` line, `{label} progress: {done}/{total} (...)` (the reference
 * pipeline's DNABERT-S stage logs one per batch): with the batch lines, what a stage's per-sequence rate is read from
 * inside one run.
 */
export interface ItemProgressEvent {
  type: 'progress'
  /** What the line names, e.g. `DNABERT-S`. */
  label: string
  done: number
  total: number
  worker: number | null
  atMs: number
}

export interface TranslationRateEvent {
  type: 'translation-rate'
  sequences: number
  durationS: number
  sequencesPerS: number
  atMs: number
}

export interface InferenceCompleteEvent {
  type: 'inference-complete'
  sequencesPerS: number | null
  tokensPerS: number | null
  worker: number | null
  atMs: number
}

export interface WorkerLineEvent {
  type: 'worker'
  rank: number
  level: string
  message: string
  atMs: number
}

export interface OomEvent {
  type: 'oom'
  line: string
  worker: number | null
  atMs: number
}

/**
 * A line the parser recognised but could not read whole: a number in it no double holds (a 400-digit duration reads
 * as Infinity, which no record accepts). The rest of the line is read where it can be (a stage end still ends its
 * stage); this names the line and what was not read, so the run's record keeps it instead of failing on it.
 */
export interface ReadErrorEvent {
  type: 'read-error'
  /** The line as the parser read it (cleanLine: no control characters); whoever keeps it bounds it (kept-line.ts). */
  line: string
  /** What could not be read, e.g. `stage duration '99999999999999999999…' (402 characters) is beyond ...`. */
  problems: string[]
  atMs: number
}

export interface SummaryStage {
  index: number
  name: string
  /** null for a stage the summary lists as `skipped`. */
  durationS: number | null
  percent: number | null
}

export interface SummaryBlock {
  totalWallS: number
  /** `HH:MM:SS` as printed. */
  totalWallHms: string
  stages: SummaryStage[]
  bottlenecks: { name: string; percent: number }[]
  /** `Key metrics:` lines, `  Label: value`; ints lose their thousands separators. */
  metrics: Record<string, StageExtraValue>
  sequencesProcessed: number | null
}

export interface SummaryEvent {
  type: 'summary'
  summary: SummaryBlock
  atMs: number
}

export type TargetEvent =
  | StageStartEvent
  | StageEndEvent
  | BatchEvent
  | ItemProgressEvent
  | TranslationRateEvent
  | InferenceCompleteEvent
  | WorkerLineEvent
  | OomEvent
  | SummaryEvent
  | ReadErrorEvent
