/** What every analysis reads: the records of one run ID, the monitor series they point to, benchmark results. */
import type { SampleRecord } from '../monitor/records.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import type { InvalidRecord } from '../results/store.ts'

/** One benchmark task as vitest's `onTestCaseBenchmark` reports it, reduced to what reports show (latency in ms). */
export interface BenchmarkTaskResult {
  /** `<test name> > <bench label>`. */
  name: string
  project: string
  latencyMs: { mean: number; p50: number; p99: number; min: number; max: number; sd: number; rme: number }
  samples: number
  /** Operations per second (tinybench's throughput mean). */
  opsPerS: number
}

/** How the vitest run that produced the records ended; reports say when they cover an incomplete run. */
export type RunOutcome = { state: 'passed' } | { state: 'failed' | 'interrupted' | 'unknown'; note: string }

export interface StoredRun {
  dir: string
  records: ResultRecord[]
  invalid: InvalidRecord[]
}

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
}
