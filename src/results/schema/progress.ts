import { z } from 'zod'

/** At most this many points of one stage's progress are kept in a record (a 6 M-sequence run logs ~40,000 batches). */
export const PROGRESS_MAX_POINTS = 4_000

/**
 * Where a series' points come from, besides the pipeline's batch lines (a series without `source`: ESM-2's `Batch i:
 * done/total`, the reference pipeline's `DNABERT-S progress: done/total`, records written before there were others):
 * - `worker-span`: a v2 worker's `Starting inference on N sequences` and `Async inference complete: N sequences`;
 * - `file-lines`: per file, `Extracting X features from FILE` (or the `X ready:` after the model it built) and `Saved
 *   X features to FILE (N sequences)`;
 * - `file-count`: per worker, the main process's `GPU W: K/F files` as each of its files ends (VirNucPro's v2
 *   DNABERT-S), the items counted from the worker's `Worker W: F files, N sequences`;
 * - `tqdm`: a tqdm bar's redraws (one point per count it shows).
 */
export const PROGRESS_SOURCES = ['worker-span', 'file-lines', 'file-count', 'tqdm'] as const
export type ProgressSource = (typeof PROGRESS_SOURCES)[number]

/**
 * One stage's progress inside one run, per worker: the pipeline's own progress lines on the runner's clock (ms from
 * the run's start, the clock of the stage spans). What a stage's per-sequence rate is read from inside a run
 * (src/capacity/rates.ts): thousands of batches give a tight slope that start-up noise does not enter. Kept in
 * the record so a stored run directory can be refitted without its logs.
 */
export const StageProgressSchema = z
  .object({
    stage: z.string(),
    /** Absent: batch lines; else which lines gave the points (PROGRESS_SOURCES). */
    source: z.enum(PROGRESS_SOURCES).optional(),
    /** The worker (GPU rank) that logged it; null for the main process. */
    worker: z.number().int().nonnegative().nullable(),
    /** Items the stage (worker) works through, as its lines say: proteins for ESM-2, frames for DNABERT-S. */
    total: z.number().nonnegative(),
    /** Lines the run logged; above PROGRESS_MAX_POINTS, evenly spaced ones are kept (the first and the last always). */
    lines: z.number().int().nonnegative(),
    /**
     * Parallel arrays, ascending: receive time (ms) and items done at that line. For `worker-span` and `file-lines`
     * in pairs, each piece's start (items done before it) and its end: the time between two pieces (the next file's
     * model build) is no piece's work.
     */
    atMs: z.array(z.number()),
    done: z.array(z.number()),
    /**
     * `file-lines` only: ms its pieces spent building a model before their work (from each file's `Extracting` to its
     * `X ready:`, all files; absent where no file built one), and the files' size as the pipeline's split line gave it
     * (`into files of N sequences`, the last one before the stage; absent where none was seen). With them the capacity
     * model knows what a file costs before its first item and how many files a larger input makes.
     */
    setupMs: z.number().nonnegative().optional(),
    itemsPerFile: z.number().positive().optional(),
    /**
     * Batch lines only: when the worker's `First batch ready` line came (same clock as `atMs`), one batch before its
     * first `Batch` line: where its GPU work starts (src/engine/work-spans.ts). Absent where the worker logged none,
     * and in records written before it was kept (their first batch line stands in).
     */
    firstBatchMs: z.number().optional(),
  })
  .refine((p) => p.atMs.length === p.done.length, { message: 'atMs and done must be parallel arrays' })
export type StageProgress = z.infer<typeof StageProgressSchema>
