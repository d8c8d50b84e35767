/**
 * One trend chart per headline metric: a line per record id + host + GPU model over the newest runs of the history in
 * order (x = the run's place, labelled by its commit), and the change points drawn as marks between two runs. Charts
 * come changed first, then the unchanged families in turn, so every family shows before any fills the page. Pure.
 */
import type { SeriesChange } from '../../history/changes.ts'
import type { Better } from '../../history/metric-names.ts'
import type { Series } from '../../history/read.ts'
import { TREND_FAMILIES, type TrendFamily, trendFamilyOf } from './trend-families.ts'

/** Charts drawn in index.html; the change-point table and summary.json hold every headline series' changes. */
export const MAX_TREND_CHARTS = 12
/** Lines per chart (record id + host + GPU model), those with change points first. */
export const MAX_TREND_LINES = 8
/** The newest runs of a chart drawn: a nightly history grows by 365 a year, and a chart of thousands reads as ink. */
export const MAX_TREND_POINTS = 100

/** One x position: a run of the history, labelled by its commit. */
export interface TrendPosition {
  x: number
  runId: string
  commit: string
  createdAt: string
}

export interface TrendPoint {
  x: number
  value: number
  ciLow: number | null
  ciHigh: number | null
  verdict: string | null
}

export interface TrendLine {
  recordId: string
  host: string
  gpuModel: string
  /** `<record id> @ <host> / <GPU model>`: the legend entry. */
  label: string
  /** The points inside the drawn window. */
  points: TrendPoint[]
  /** Points of the whole series. */
  pointsTotal: number
  newestValue: number
  changes: number
}

/** A change point drawn: a vertical rule between the last run before it and the first after it. */
export interface TrendMark {
  x: number
  line: string
  fromKey: string
  toKey: string
  relativeChange: number
  regression: boolean
}

export interface TrendChart {
  metric: string
  family: TrendFamily
  unit: string | null
  better: Better | null
  /** Drawn x positions, oldest first; x is the index. */
  positions: TrendPosition[]
  /** Older runs not drawn (past MAX_TREND_POINTS). */
  positionsLeftOut: number
  lines: TrendLine[]
  linesLeftOut: number
  marks: TrendMark[]
  /** Change points of all the metric's series (drawn or not), and how many of them are regressions. */
  changes: number
  regressions: number
}

export const lineKey = (k: { metric: string; recordId: string; host: string; gpuModel: string }) =>
  `${k.metric}\u0000${k.recordId}\u0000${k.host}\u0000${k.gpuModel}`
const seriesKey = (s: Series) =>
  lineKey({ metric: s.metric.name, recordId: s.recordId, host: s.host, gpuModel: s.gpuModel })
const lineLabel = (s: Series) => `${s.recordId} @ ${s.host} / ${s.gpuModel}`

/** The newest MAX_TREND_POINTS runs of the lines, oldest first (createdAt of their first record, then run ID). */
function positionsOf(series: readonly Series[]): { positions: TrendPosition[]; leftOut: number } {
  const runs = new Map<string, TrendPosition>()
  for (const s of series)
    for (const r of s.records) {
      const seen = runs.get(r.runId)
      if (!seen || r.createdAt < seen.createdAt)
        runs.set(r.runId, { x: 0, runId: r.runId, commit: r.commit, createdAt: r.createdAt })
    }
  const all = [...runs.values()].sort(
    (a, b) => a.createdAt.localeCompare(b.createdAt) || a.runId.localeCompare(b.runId),
  )
  const kept = all.slice(-MAX_TREND_POINTS).map((p, x) => ({ ...p, x }))
  return { positions: kept, leftOut: all.length - kept.length }
}

function lineOf(s: Series, xOf: ReadonlyMap<string, number>, changes: number): TrendLine {
  const points: TrendPoint[] = []
  s.records.forEach((r, i) => {
    const x = xOf.get(r.runId)
    if (x === undefined) return
    const d = s.detail
    points.push({
      x,
      value: s.values[i]!,
      ciLow: d?.ciLow[i] ?? null,
      ciHigh: d?.ciHigh[i] ?? null,
      verdict: d?.verdicts[i] ?? null,
    })
  })
  const { recordId, host, gpuModel } = s
  return {
    recordId,
    host,
    gpuModel,
    label: lineLabel(s),
    points,
    pointsTotal: s.values.length,
    newestValue: s.values.at(-1)!,
    changes,
  }
}

export function chartOf(series: Series[], changesOf: ReadonlyMap<string, SeriesChange[]>): TrendChart {
  const changes = (s: Series) => changesOf.get(seriesKey(s)) ?? []
  const ordered = [...series].sort(
    (a, b) => changes(b).length - changes(a).length || lineLabel(a).localeCompare(lineLabel(b)),
  )
  const drawn = ordered.slice(0, MAX_TREND_LINES)
  const { positions, leftOut } = positionsOf(drawn)
  const xOf = new Map(positions.map((p) => [p.runId, p.x]))
  const marks: TrendMark[] = []
  for (const s of drawn)
    for (const c of changes(s)) {
      const from = xOf.get(c.fromRun)
      const to = xOf.get(c.toRun)
      if (from === undefined || to === undefined) continue
      const { fromKey, toKey, relativeChange, regression } = c
      marks.push({ x: (from + to) / 2, line: lineLabel(s), fromKey, toKey, relativeChange, regression })
    }
  const all = series.flatMap(changes)
  const { name, unit, better } = series[0]!.metric
  return {
    metric: name,
    family: trendFamilyOf(name)!,
    unit,
    better,
    positions,
    positionsLeftOut: leftOut,
    lines: drawn.map((s) => lineOf(s, xOf, changes(s).length)),
    linesLeftOut: ordered.length - drawn.length,
    marks: marks.sort((a, b) => a.x - b.x),
    changes: all.length,
    regressions: all.filter((c) => c.regression).length,
  }
}

const largestChange = (c: TrendChart) => Math.max(0, ...c.marks.map((m) => Math.abs(m.relativeChange)))

/** Changed charts first (with a regression, then by the largest change), then the unchanged families in turn. */
export function orderCharts(charts: TrendChart[]): TrendChart[] {
  const changed = charts
    .filter((c) => c.changes > 0)
    .sort(
      (a, b) =>
        Number(b.regressions > 0) - Number(a.regressions > 0) ||
        largestChange(b) - largestChange(a) ||
        a.metric.localeCompare(b.metric),
    )
  const queues = TREND_FAMILIES.map((f) =>
    charts.filter((c) => c.changes === 0 && c.family === f).sort((a, b) => a.metric.localeCompare(b.metric)),
  )
  const unchanged: TrendChart[] = []
  for (let i = 0; queues.some((q) => i < q.length); i++) for (const q of queues) if (i < q.length) unchanged.push(q[i]!)
  return [...changed, ...unchanged]
}
