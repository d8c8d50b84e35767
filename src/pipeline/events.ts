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

/**
 * `Async inference complete: N sequences, R seq/s, T tokens/s`: a worker's ESM-2 loop is done. A rate the line prints
 * as 0 is null: VirNucPro's v2 workers print `0.0 seq/s, 0 tokens/s` when their monitor measured nothing (it counts no
 * batches that the collator's final flush packs), and a stage that did its work at no rate is no reading.
 */
export interface InferenceCompleteEvent {
  type: 'inference-complete'
  /** Sequences the loop embedded; null when the line does not say. */
  sequences: number | null
  sequencesPerS: number | null
  tokensPerS: number | null
  worker: number | null
  atMs: number
}

/**
 * `Starting inference on N sequences (...)`: a worker's ESM-2 loop starts on its N sequences (VirNucPro's v2
 * async_inference.py, before its DataLoader yields the first one): with its `Async inference complete`, the worker's
 * span.
 */
export interface InferenceStartEvent {
  type: 'inference-start'
  sequences: number
  worker: number | null
  atMs: number
}

/**
 * `First batch ready after X s buffering (N sequences, T tokens)`: a v2 ESM-2 worker's first packed batch goes to its
 * GPU (first-batch-line.ts): where the worker's steady part starts.
 */
export interface FirstBatchEvent {
  type: 'first-batch'
  /** Seconds the worker says it spent from its loop's start to this batch. */
  bufferingS: number
  /** Sequences and tokens in the first batch. */
  sequences: number
  tokens: number
  worker: number | null
  atMs: number
}

/** `Extracting {label} features from FILE`: one file's extraction starts (VirNucPro's v1 features.py). */
export interface FileStartEvent {
  type: 'file-start'
  /** `DNABERT-S`, `ESM-2`. */
  label: string
  file: string
  worker: number | null
  atMs: number
}

/** `{label} ready: ...`: the model a file's extraction built is ready (ESM-2 builds its model per file). */
export interface ModelReadyEvent {
  type: 'model-ready'
  label: string
  worker: number | null
  atMs: number
}

/** `Saved {label} features to FILE (N sequences)`: one file's extraction is done. */
export interface FileDoneEvent {
  type: 'file-done'
  label: string
  file: string
  sequences: number
  worker: number | null
  atMs: number
}

/**
 * `Splitting FILE into files of N sequences`: the pipeline splits its input into files of at most N sequences
 * (VirNucPro's file_utils.py, before each GPU stage), and its v1 path builds each GPU stage's model once per file: how
 * many files a size makes tells how often that build is paid (src/capacity/per-file.ts).
 */
export interface FileSplitEvent {
  type: 'file-split'
  sequencesPerFile: number
  worker: number | null
  atMs: number
}

/**
 * `Worker W: F files, N sequences`: the main process hands worker W (GPU W) F of the split files, N sequences in all
 * (VirNucPro's base_worker.py, v2 path's DNABERT-S: files sorted largest first, so a worker's smaller file, the
 * split's remainder, comes last).
 */
export interface FilesAssignedEvent {
  type: 'files-assigned'
  worker: number
  files: number
  sequences: number
  atMs: number
}

/**
 * `GPU G: K/T files (P%)`: the main process's dashboard saw worker G finish its K-th file of T (VirNucPro's v2
 * DNABERT-S, whose workers print nothing the main log holds): a file's end on the runner's clock.
 */
export interface FilesDoneEvent {
  type: 'files-done'
  worker: number
  done: number
  total: number
  atMs: number
}

/**
 * One redraw of a tqdm bar (tqdm-line.ts). `atMs` is when the redraw was written: the runner's receive time of the
 * line's first byte (a redraw is ended only by the next write, which can come much later), or, read from a stored
 * log, the bar's first stamp plus tqdm's own elapsed seconds.
 */
export interface TqdmEvent {
  type: 'tqdm'
  label: string | null
  done: number
  total: number
  elapsedS: number
  atMs: number
}

export interface WorkerLineEvent {
  type: 'worker'
  rank: number
  level: string
  message: string
  atMs: number
}

/** `Architecture: v2.0 hybrid`: the code path the pipeline says it runs (architecture-line.ts). */
export interface ArchitectureEvent {
  type: 'architecture'
  architecture: string
  line: string
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
  /**
   * The run's input sequences: Sequence Chunking's `sequences` where the log gave it, else the block's `Sequences
   * processed` (which VirNucPro sums over its stages: log-parser.ts INPUT_STAGE). The printed total is in `metrics`.
   */
  sequencesProcessed: number | null
}

export interface SummaryEvent {
  type: 'summary'
  summary: SummaryBlock
  atMs: number
}

export type TargetEvent =
  | ArchitectureEvent
  | StageStartEvent
  | StageEndEvent
  | BatchEvent
  | ItemProgressEvent
  | TranslationRateEvent
  | InferenceCompleteEvent
  | InferenceStartEvent
  | FirstBatchEvent
  | FileStartEvent
  | ModelReadyEvent
  | FileDoneEvent
  | FileSplitEvent
  | FilesAssignedEvent
  | FilesDoneEvent
  | TqdmEvent
  | WorkerLineEvent
  | OomEvent
  | SummaryEvent
  | ReadErrorEvent
