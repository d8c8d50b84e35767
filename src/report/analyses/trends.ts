/**
 * Trends over the history (src/history): which stored series are headline (wall time, rates per stage, PERF-02
 * utilization, J/seq, the projected time at the production size), one chart per metric with a line per record id +
 * host + GPU model over the history's runs in order, and the change points the detector found in them. Charts are
 * bounded: changed metrics first, then the families in turn, so every family shows before any fills the page. Pure:
 * the loaded input in, plain data out.
 */
import type { ChangesReport, NewestJudgement, SeriesChange } from '../../history/changes.ts'
import type { TrendsInput } from '../input.ts'
import { chartOf, lineKey, MAX_TREND_CHARTS, orderCharts, type TrendChart } from './trend-charts.ts'
import { isTrendSeries, trendFamilyOf } from './trend-families.ts'

/** The newest run's point against the last stable window, as the history's gate judged it. */
export type TrendJudgement = Omit<NewestJudgement, 'comparison'> & {
  verdict: NewestJudgement['comparison']['verdict']
  reason: string
  ratio: number | null
}

export type TrendsReport =
  | { state: 'unavailable'; file: string; reason: string }
  | {
      state: 'loaded'
      file: string
      /** Runs holding a headline series' point. */
      runs: number
      /** Headline series with >= 2 points (drawn or not), and those with one point (nothing to trend yet). */
      series: number
      singlePointSeries: number
      charts: TrendChart[]
      chartsLeftOut: number
      /** Every change point of the headline series, regressions first. */
      changes: SeriesChange[]
      newestCommit: string | null
      newestRun: string | null
      newest: TrendJudgement[]
      /** What the newest run brings to light: what the history's gate fails on. */
      regressions: ChangesReport['regressions']
      /** The newest run's own regressions against the window, not yet confirmed by a second run: reported only. */
      suspects: ChangesReport['suspects']
      notJudged: ChangesReport['notJudged']
    }

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>()
  for (const item of items) {
    const list = groups.get(key(item))
    if (list) list.push(item)
    else groups.set(key(item), [item])
  }
  return groups
}

function judgementOf({ comparison, ...key }: NewestJudgement): TrendJudgement {
  return { ...key, verdict: comparison.verdict, reason: comparison.reason, ratio: comparison.ratio?.estimate ?? null }
}

/** The trends of a loaded history (or why there are none); null when no history was asked for. */
export function analyzeTrends(input: TrendsInput | null | undefined): TrendsReport | null {
  if (!input) return null
  if (input.state === 'unavailable') return input
  const headline = input.series.filter((s) => trendFamilyOf(s.metric.name) !== null)
  const trending = headline.filter(isTrendSeries)
  const isHeadline = (k: { metric: string }) => trendFamilyOf(k.metric) !== null
  const changes = input.changes.changes
    .filter(isHeadline)
    .sort(
      (a, b) => Number(b.regression) - Number(a.regression) || Math.abs(b.relativeChange) - Math.abs(a.relativeChange),
    )
  const changesOf = groupBy(changes, lineKey)
  const byMetric = groupBy(trending, (s) => `${s.metric.name}\u0000${s.metric.unit ?? ''}`)
  const charts = orderCharts([...byMetric.values()].map((list) => chartOf(list, changesOf)))
  const { newestCommit, newestRun, newest, regressions, suspects, notJudged } = input.changes
  return {
    state: 'loaded',
    file: input.file,
    runs: new Set(headline.flatMap((s) => s.records.map((r) => r.runId))).size,
    series: trending.length,
    singlePointSeries: headline.length - trending.length,
    charts: charts.slice(0, MAX_TREND_CHARTS),
    chartsLeftOut: Math.max(0, charts.length - MAX_TREND_CHARTS),
    changes,
    newestCommit,
    newestRun,
    newest: newest.filter(isHeadline).map(judgementOf),
    regressions: regressions.filter(isHeadline),
    suspects: suspects.filter(isHeadline),
    notJudged: notJudged.filter(isHeadline),
  }
}
