/**
 * Reads what the analyses need from disk: the records of one run directory, the monitor series their runs point to
 * (`runs[].gpu.logPath`, relative paths resolved against the run directory), a baseline run, and a history's trends
 * (history-input.ts). Nothing here throws for a bad record, a missing log or an unusable history: bad records come back
 * as `invalid`, missing series as notes, the history as `unavailable` with why.
 */
import { isAbsolute, join, resolve } from 'node:path'
import { readMonitorLog } from '../monitor/log-reader.ts'
import type { SampleRecord } from '../monitor/records.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import { readResultRecords } from '../results/store.ts'
import { type HistoryLoadOptions, loadTrendsInput } from './history-input.ts'
import type { BenchmarkTaskResult, ReportInput, RunOutcome, StoredRun } from './input.ts'

export interface LoadOptions {
  resultsDir: string | null
  baselineDir?: string | null
  benchmarks?: BenchmarkTaskResult[]
  outcome?: RunOutcome
  now?: Date
  /** A history database to draw trends from (a file name, or with lock waits); none when null or absent. */
  history?: string | HistoryLoadOptions | null
}

/** Samples of every monitor log the records name, read once each; the reason for each one that could not be read. */
export async function loadSeries(
  records: readonly ResultRecord[],
  dir: string,
): Promise<{ series: Map<string, SampleRecord[]>; notes: string[] }> {
  const series = new Map<string, SampleRecord[]>()
  const notes: string[] = []
  const paths = new Set(records.flatMap((r) => r.runs.flatMap((run) => (run.gpu?.logPath ? [run.gpu.logPath] : []))))
  for (const logPath of paths) {
    const file = isAbsolute(logPath) ? logPath : join(dir, logPath)
    try {
      const log = await readMonitorLog(file)
      series.set(
        logPath,
        log.records.filter((r): r is SampleRecord => r.kind === 'sample'),
      )
      if (log.truncatedTail) notes.push(`monitor log ${logPath}: last line cut off (monitor killed?), ignored`)
    } catch (error) {
      notes.push(`monitor log ${logPath}: not read (${(error as Error).message}); its charts are omitted`)
    }
  }
  return { series, notes }
}

async function readStored(dir: string): Promise<StoredRun> {
  const { records, invalid } = await readResultRecords(dir)
  return { dir, records, invalid }
}

function historyTrends(history: LoadOptions['history']): ReportInput['trends'] {
  if (history === undefined || history === null) return null
  return loadTrendsInput(typeof history === 'string' ? { file: history } : history)
}

/**
 * Everything a report needs. A results directory that does not exist reads as empty, with a note.
 * @throws only when `baselineDir` is given and cannot be read (the caller asked for that comparison).
 */
export async function loadReportInput(options: LoadOptions): Promise<ReportInput> {
  const dir = options.resultsDir === null ? null : resolve(options.resultsDir)
  let stored: StoredRun = { dir: dir ?? '', records: [], invalid: [] }
  const notes: string[] = []
  if (dir !== null) {
    try {
      stored = await readStored(dir)
    } catch (error) {
      notes.push(`results directory ${dir}: not read (${(error as Error).message})`)
    }
  }
  const { series, notes: seriesNotes } = dir ? await loadSeries(stored.records, dir) : { series: new Map(), notes: [] }
  const baseline = options.baselineDir ? await readStored(resolve(options.baselineDir)) : null
  return {
    runId: stored.records[0]?.provenance.runId ?? (dir ? (dir.split(/[\\/]/).at(-1) ?? null) : null),
    resultsDir: dir,
    records: stored.records,
    invalid: stored.invalid,
    series,
    seriesNotes: [...notes, ...seriesNotes],
    benchmarks: options.benchmarks ?? [],
    baseline,
    outcome: options.outcome ?? { state: 'passed' },
    generatedAt: (options.now ?? new Date()).toISOString(),
    trends: historyTrends(options.history),
  }
}
