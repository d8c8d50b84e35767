/**
 * What every analysis reads: the records of one run ID (or of many hosts and runs merged), the monitor series they
 * point to, benchmark results, and the headline series of a history database when one was asked for.
 */
import type { ChangesReport } from '../history/changes.ts'
import type { Series } from '../history/read.ts'
import type { SampleRecord } from '../monitor/records.ts'
import type { BenchmarkTaskResult, RunOutcome } from '../results/invocations.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import type { InvalidRecord } from '../results/store.ts'

export type { BenchmarkTaskResult, RunOutcome } from '../results/invocations.ts'

export interface StoredRun {
  dir: string
  records: ResultRecord[]
  invalid: InvalidRecord[]
}

/** One run directory a merged report read (a directory given, or a run directory of a results root given). */
export interface SourceDir {
  dir: string
  /** Run IDs of the records read from it, first-seen order. */
  runIds: string[]
  /** Records taken from it (copies of records read before left out). */
  records: number
  invalid: number
  /** Records it held that an earlier directory held too (the same run, id, time and host). */
  duplicates: number
  /** Why it could not be read; null when it was. */
  problem: string | null
}

/**
 * A history database's headline series (with their CIs and verdict states) and what changed in them, as read by
 * history-input.ts; or why the file could not be used (missing, locked, a newer schema, not a history).
 */
export type TrendsInput =
  | { state: 'loaded'; file: string; series: Series[]; changes: ChangesReport }
  | { state: 'unavailable'; file: string; reason: string }

export interface ReportInput {
  runId: string | null
  resultsDir: string | null
  records: ResultRecord[]
  invalid: InvalidRecord[]
  /** Monitor samples by the `logPath` written in a run's monitor summary (as written, not resolved). */
  series: ReadonlyMap<string, readonly SampleRecord[]>
  /** Why a run's series is absent (log missing, unreadable); charts say so instead of failing. */
  seriesNotes: string[]
  benchmarks: BenchmarkTaskResult[]
  baseline: StoredRun | null
  outcome: RunOutcome
  generatedAt: string
  /** The history's trends; null or absent when no history was asked for (the report says so in one line). */
  trends?: TrendsInput | null
  /** The directories a merged report read (several given, or a results root); absent for one run directory. */
  sources?: SourceDir[]
}
