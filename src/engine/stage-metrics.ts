/**
 * Per-stage figures read from one run record: how long each stage took and how many items and tokens it handled
 * (from the stage-end `[key: value]` extras the pipeline prints), and the same across repeated runs as medians with
 * confidence intervals (src/measure).
 */
import { type MedianEstimate, medianWithCi, toSorted } from '../measure/index.ts'
import type { RunRecord } from '../pipeline/run-record.ts'

/** The extras key that counts a stage's items ("sequences" for seq/s), where the pipeline prints one. */
const ITEM_KEYS: Readonly<Record<string, string>> = {
  'Sequence Chunking': 'sequences',
  'Six-Frame Translation': 'chunks',
  'Nucleotide File Splitting': 'records',
  'Protein File Splitting': 'records',
  'DNABERT-S Feature Extraction': 'frames',
  'ESM-2 Feature Extraction': 'proteins',
  'Feature Merging': 'rows',
  'Model Prediction': 'predictions',
  'Consensus Scoring': 'chunks',
}
/** Keys that are never item counts when falling back to the first numeric extra. */
const NOT_ITEMS = new Set(['tokens', 'workers', 'files', 'virus'])

export interface StageRunFigures {
  stage: string
  durationMs: number | null
  items: number | null
  tokens: number | null
}

/** Stage duration on the harness clock, else the log's own (0.1 s resolution); null for a skipped stage. */
export function stageDurationMs(run: RunRecord, stage: string): number | null {
  const span = run.stages.find((s) => s.name === stage)
  if (!span || span.skippedReason !== null) return null
  if (span.receivedDurationMs !== null) return span.receivedDurationMs
  return span.logDurationS === null ? null : span.logDurationS * 1000
}

function itemsOf(extras: Record<string, number | string>, stage: string): number | null {
  const key = ITEM_KEYS[stage]
  const named = key === undefined ? undefined : extras[key]
  if (typeof named === 'number') return named
  const first = Object.entries(extras).find(([k, v]) => typeof v === 'number' && !NOT_ITEMS.has(k))
  return first ? (first[1] as number) : null
}

/** Figures for every stage the run logged, in log order. */
export function stageRunFigures(run: RunRecord): StageRunFigures[] {
  return run.stages.map((span) => ({
    stage: span.name,
    durationMs: stageDurationMs(run, span.name),
    items: itemsOf(span.extras, span.name),
    tokens: typeof span.extras.tokens === 'number' ? span.extras.tokens : null,
  }))
}

/** Items per stage name (the monitor's `stageSequenceCounts`, for J per sequence). */
export function stageItemCounts(run: RunRecord): Record<string, number> {
  const counts: Record<string, number> = {}
  for (const f of stageRunFigures(run)) if (f.items !== null) counts[f.stage] = f.items
  return counts
}

/** Median with CI (at `level`, default 0.95) of the finite values, or null when there are none. */
export function estimate(values: readonly (number | null)[], input: string, level?: number): MedianEstimate | null {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v))
  return present.length === 0 ? null : medianWithCi(toSorted(present, input), level === undefined ? {} : { level })
}

/** A MedianEstimate as the record stores it: median, n and the CI bounds. */
export interface EstimateStat {
  median: number
  n: number
  ci: { low: number; high: number; level: number; coverage: number | null; method: string } | null
}

export function toStat(e: MedianEstimate | null): EstimateStat | null {
  return e === null ? null : { median: e.median, n: e.n, ci: e.ci }
}
