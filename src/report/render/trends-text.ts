/** Words and figures of the trends section, shared by index.html and summary.md (and the terminal). Pure. */
import type { Regression, SeriesChange } from '../../history/changes.ts'
import type { TrendsReport } from '../analyses/trends.ts'
import { fmtRange, fmtValue } from './format.ts'

type Loaded = Extract<TrendsReport, { state: 'loaded' }>

/** A 40-hex commit as its first 7 characters (what git shows); anything else (`unknown`) as it is. */
export const shortCommit = (commit: string) => (/^[0-9a-f]{40}$/.test(commit) ? commit.slice(0, 7) : commit)

/** A relative change as a signed percentage: `+12.3%`, `-4.0%`. */
export const fmtChange = (share: number) => `${share >= 0 ? '+' : ''}${(share * 100).toFixed(1)}%`

const withUnit = (text: string, unit: string | null) => (unit ? `${text} ${unit}` : text)

/** A level of a change: `1020 ms [1010, 1030] (n 12)`. */
export const fmtLevel = (level: SeriesChange['before'], unit: string | null) =>
  `${withUnit(fmtValue(level.median), unit)}${fmtRange(level.ci, fmtValue)} (n ${level.n})`

export const commitRange = (c: Pick<SeriesChange, 'fromKey' | 'toKey'>) =>
  `${shortCommit(c.fromKey)}..${shortCommit(c.toKey)}`

export const machineOf = (k: { host: string; gpuModel: string }) => `${k.host} / ${k.gpuModel}`

/** The cells of a change-point table row (text; renderers escape). */
export function changeCells(c: SeriesChange): string[] {
  const moved = c.movedWith.map((m) => `${m.metric} ${fmtChange(m.relativeChange)}`).join('; ')
  return [
    c.regression ? 'regression' : 'improvement',
    c.metric,
    c.recordId,
    machineOf(c),
    commitRange(c),
    `${c.fromRun}..${c.toRun}`,
    fmtLevel(c.before, c.unit),
    fmtLevel(c.after, c.unit),
    fmtChange(c.relativeChange),
    c.pValue.toPrecision(2),
    moved,
  ]
}

export const CHANGE_HEAD = [
  'change',
  'metric',
  'record',
  'host / GPU',
  'commits',
  'runs',
  'before [95% CI]',
  'after [95% CI]',
  'relative',
  'p',
  'moved with it',
]

/** What the history holds and what changed, in one line. */
export function trendsLine(t: Loaded): string {
  const regressions = t.changes.filter((c) => c.regression).length
  const newest = t.newestCommit ? ` (newest: run ${t.newestRun}, commit ${shortCommit(t.newestCommit)})` : ''
  const single = t.singlePointSeries ? `; ${t.singlePointSeries} more with one point so far` : ''
  const changes =
    t.changes.length === 0
      ? 'no change points'
      : `${t.changes.length} change point(s): ${regressions} regression(s), ${t.changes.length - regressions} improvement(s)`
  return `History ${t.file}: ${t.series} headline series with 2 or more points over ${t.runs} runs${newest}${single}; ${changes}.`
}

/** The newest run against the last stable window: the counts by verdict, in one line. */
export function newestLine(t: Loaded): string | null {
  if (!t.newestCommit) return null
  const counts = new Map<string, number>()
  for (const j of t.newest) counts.set(j.verdict, (counts.get(j.verdict) ?? 0) + 1)
  const tally = [...counts].map(([v, n]) => `${n} ${v}`).join(', ') || 'no series with earlier points'
  // A ratio of null: too few runs to estimate one (a point without its runs stored); say why once.
  const tooFew = t.newest.find((j) => j.verdict === 'inconclusive' && j.ratio === null)
  const why = tooFew ? ` Inconclusive for too few runs, e.g. ${tooFew.reason}.` : ''
  return `Newest run ${t.newestRun} (commit ${shortCommit(t.newestCommit)}) against the last stable window: ${tally}.${why}`
}

/** One regression the newest run brings to light: what, where, by how much, the commit range and how it showed. */
export function regressionText(r: Regression): string {
  const runs = r.pointsRegressed
  const nights = runs === undefined ? '' : runs === 1 ? ', this run alone' : `, ${runs} runs regressed since it started`
  const how = r.how === 'change-point' ? 'change point confirmed' : `newest run against the last stable window${nights}`
  return `${r.metric} of ${r.recordId} on ${machineOf(r)}: ${fmtChange(r.relativeChange)} in ${commitRange({ fromKey: r.fromCommit, toKey: r.toCommit })} (${how})`
}

/** What the history's gate fails on, and what it suspects without failing, in one line. */
export function regressionsLine(t: Loaded): string {
  const failed =
    t.regressions.length === 0
      ? 'No regression brought to light by the newest run.'
      : `Regression brought to light by the newest run in ${t.regressions.length} series: ${t.regressions.map(regressionText).join('; ')}.`
  if (t.suspects.length === 0) return failed
  return `${failed} Suspected, not yet confirmed by a second run, in ${t.suspects.length} series: ${t.suspects.map(regressionText).join('; ')}.`
}

export const NO_HISTORY =
  'No history database given (report --history FILE; the reporter reads $VIRNUCPRO_BENCH_HISTORY): no trends.'

/** The reason names the file (history-input.ts makes sure). */
export const unavailableLine = (t: Extract<TrendsReport, { state: 'unavailable' }>) =>
  `History not used, no trends: ${t.reason}`

/** The charts drawn and those left out, in one line; null when all are drawn. */
export function chartsLeftOutLine(t: Loaded): string | null {
  if (t.chartsLeftOut === 0) return null
  const total = t.charts.length + t.chartsLeftOut
  return `Charts drawn for ${t.charts.length} of ${total} headline metrics (changed first, then each family in turn); the change-point table lists every change, and virnucpro-bench history show draws any series.`
}

/** The terminal's trends lines: what changed in one line and what the newest run brings to light; none without a history. */
export function trendsTerminalLines(trends: TrendsReport | null): string[] {
  if (trends === null) return []
  if (trends.state === 'unavailable') return [unavailableLine(trends)]
  const regressions = trends.changes.filter((c) => c.regression).length
  const line = `trends: ${trends.changes.length} change point(s) (${regressions} regression(s)) in ${trends.series} headline series of ${trends.file}`
  return trends.regressions.length + trends.suspects.length ? [line, regressionsLine(trends)] : [line]
}
