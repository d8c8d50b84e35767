/**
 * A trend chart (vega-lite, rendered to SVG by charts.ts renderSvg): one headline metric over the history's runs in
 * order, the x axis labelled with each run's commit (short sha), one line per record id + host + GPU model with each
 * point's 95% CI as a bar, and each change point as a dashed vertical rule between the last run before it and the
 * first after, labelled with the commit range and the relative change (regressions red, improvements green).
 */
import type { TopLevelSpec } from 'vega-lite'
import type { TrendChart, TrendMark } from '../analyses/trend-charts.ts'
import { fmtChange, shortCommit } from './trends-text.ts'

const WIDTH = 720
const HEIGHT = 240
/** Commit labels on the x axis at most; with more runs every k-th run is labelled. */
export const MAX_X_LABELS = 25
/** Change-point labels stack this many rows deep from the top before they start again, so neighbours do not overlap. */
const LABEL_ROWS = 4
const LABEL_ROW_PX = 13

export const REGRESSION_COLOR = '#cf222e'
export const IMPROVEMENT_COLOR = '#1a7f37'

/** The title of the y axis: the unit and which way is better. */
export function valueTitle(chart: Pick<TrendChart, 'unit' | 'better'>): string {
  const better = chart.better ? ` (${chart.better} is better)` : ''
  return `${chart.unit ?? 'value'}${better}`
}

function xAxis(chart: TrendChart) {
  const n = chart.positions.length
  const step = Math.ceil(n / MAX_X_LABELS)
  const values = chart.positions.filter((p) => p.x % step === 0 || p.x === n - 1).map((p) => p.x)
  // The labels as an array literal the axis indexes: JSON string literals, so a commit is text, never expression.
  const labels = JSON.stringify(chart.positions.map((p) => shortCommit(p.commit)))
  return {
    field: 'x',
    type: 'quantitative' as const,
    scale: { domain: [-0.5, Math.max(0.5, n - 0.5)], nice: false, zero: false },
    title: chart.positionsLeftOut
      ? `commit (the newest ${n} runs; ${chart.positionsLeftOut} older not drawn)`
      : 'commit (runs in history order)',
    axis: {
      values,
      labelExpr: `${labels}[datum.value] || ''`,
      labelAngle: n > 10 ? -45 : 0,
      grid: false,
      labelOverlap: false,
    },
  }
}

const markRows = (marks: readonly TrendMark[], n: number) =>
  marks.map((m, i) => ({
    x: m.x,
    text: `${shortCommit(m.fromKey)}..${shortCommit(m.toKey)} ${fmtChange(m.relativeChange)}`,
    row: (i % LABEL_ROWS) * LABEL_ROW_PX + 2,
    regression: m.regression,
    // Labels past the middle read leftwards from their rule, so none runs off the plot.
    right: m.x > (n - 1) / 2,
  }))

/** Rules and labels of one colour. */
function markLayers(rows: ReturnType<typeof markRows>, regression: boolean, x: ReturnType<typeof xAxis>) {
  const color = regression ? REGRESSION_COLOR : IMPROVEMENT_COLOR
  const mine = rows.filter((r) => r.regression === regression)
  if (mine.length === 0) return []
  const label = (right: boolean) => ({
    data: { values: mine.filter((r) => r.right === right) },
    mark: {
      type: 'text' as const,
      align: right ? ('right' as const) : ('left' as const),
      baseline: 'top' as const,
      dx: right ? -3 : 3,
      color,
      fontSize: 11,
      fontWeight: 'bold' as const,
    },
    encoding: { x, y: { field: 'row', type: 'quantitative' as const, scale: null }, text: { field: 'text' } },
  })
  return [
    {
      data: { values: mine },
      mark: { type: 'rule' as const, color, strokeDash: [6, 3], strokeWidth: 1.5 },
      encoding: { x },
    },
    label(false),
    label(true),
  ]
}

export function trendSpec(chart: TrendChart): TopLevelSpec {
  const x = xAxis(chart)
  const points = chart.lines.flatMap((l) =>
    l.points.map((p) => ({ x: p.x, value: p.value, low: p.ciLow, high: p.ciHigh, line: l.label })),
  )
  const y = { field: 'value', type: 'quantitative' as const, title: valueTitle(chart), scale: { zero: false } }
  const color = {
    field: 'line',
    type: 'nominal' as const,
    scale: { domain: chart.lines.map((l) => l.label) },
    legend: {
      orient: 'bottom' as const,
      direction: 'vertical' as const,
      title: null,
      labelLimit: 640,
      symbolOpacity: 1,
    },
  }
  const rows = markRows(chart.marks, chart.positions.length)
  return {
    $schema: 'https://vega.github.io/schema/vega-lite/v6.json',
    width: WIDTH,
    height: HEIGHT,
    layer: [
      {
        data: { values: points.filter((p) => p.low !== null && p.high !== null) },
        mark: { type: 'rule', opacity: 0.45, strokeWidth: 2 },
        encoding: { x, y: { ...y, field: 'low' }, y2: { field: 'high' }, color },
      },
      {
        data: { values: points },
        mark: { type: 'line', point: { filled: true, size: 30 }, strokeWidth: 1.5 },
        encoding: { x, y, color },
      },
      ...markLayers(rows, true, x),
      ...markLayers(rows, false, x),
    ],
  } as TopLevelSpec
}
