/**
 * Reads the trends a report draws from a history database (src/history): the headline series with their CIs and
 * verdict states, and the change points and newest-commit judgements of those with two or more points. A history
 * that cannot be used (missing, locked, a newer schema, not a history, a series the detector refuses) comes back as
 * `unavailable` with why, naming the file: a report never fails for its history.
 */
import { existsSync } from 'node:fs'
import { resolve } from 'node:path'
import { analyzeChanges } from '../history/changes.ts'
import { metricNames, readSeries, sampleReader } from '../history/read.ts'
import { HistoryStore } from '../history/store.ts'
import { isTrendSeries, trendFamilyOf } from './analyses/trend-families.ts'
import type { TrendsInput } from './input.ts'

export interface HistoryLoadOptions {
  file: string
  /**
   * How long to wait for a lock (a `history add` writing): SQLite's busy timeout, then `retries` more tries. A report
   * waits less than `history add` does (defaults: 500 ms, 1 retry): without its history it is still a report.
   */
  busyTimeoutMs?: number
  retries?: number
}

export const REPORT_HISTORY_BUSY_TIMEOUT_MS = 500
export const REPORT_HISTORY_RETRIES = 1

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))

/** The trends input of the history at `options.file`; never throws. */
export function loadTrendsInput(options: HistoryLoadOptions): TrendsInput {
  const file = resolve(options.file)
  try {
    using store = HistoryStore.open(file, {
      busyTimeoutMs: options.busyTimeoutMs ?? REPORT_HISTORY_BUSY_TIMEOUT_MS,
      retries: options.retries ?? REPORT_HISTORY_RETRIES,
      retryPauseMs: 100,
    })
    const metrics = metricNames(store).filter((m) => trendFamilyOf(m.name) !== null)
    const series = metrics.length === 0 ? [] : readSeries(store, { metrics, detail: true })
    const changes = analyzeChanges(series.filter(isTrendSeries), { samplesOf: sampleReader(store) })
    return { state: 'loaded', file, series, changes }
  } catch (error) {
    // HistoryError messages already name the file; others (SQLite mid-read, the detector) get it added.
    const text = message(error)
    return { state: 'unavailable', file, reason: text.includes(file) ? text : `${file}: ${text}` }
  }
}

/**
 * The history the reporter draws trends from: $VIRNUCPRO_BENCH_HISTORY when it names an existing file, else null (the
 * first night of a history has no file yet; `history add` creates it after the reports).
 */
export function reporterHistoryFile(env: NodeJS.ProcessEnv = process.env): string | null {
  const named = env.VIRNUCPRO_BENCH_HISTORY?.trim()
  return named && existsSync(named) ? resolve(named) : null
}
