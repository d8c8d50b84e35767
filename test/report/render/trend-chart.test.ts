// The trend chart spec (vega-lite) and its SVG, over a synthetic history with a regression and a recovery planted.
import { describe, expect, test } from 'vitest'
import type { TrendChart } from '../../../src/report/analyses/trend-charts.ts'
import { renderSvg } from '../../../src/report/render/charts.ts'
import { IMPROVEMENT_COLOR, REGRESSION_COLOR, trendSpec } from '../../../src/report/render/trend-chart.ts'
import { syntheticCommit } from '../../history/support/synthetic-history.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { loadedTrends, reportWithHistory, syntheticHeadlineHistory } from '../support/history.ts'

const root = tempDirUntilFileEnd('trend-chart-')
const file = syntheticHeadlineHistory(root, {
  names: ['wall/1 GPU', 'energy/1 GPU'],
  steps: [
    // Not at 10 and 20: a hump of exactly a third of a short history is the detector's weak case (src/measure/README.md).
    { metrics: ['wall/1 GPU'], atRun: 8, factor: 1.3 },
    { metrics: ['wall/1 GPU'], atRun: 22, factor: 1 / 1.3 },
  ],
})
const trends = loadedTrends((await reportWithHistory(file)).report)
const wall = trends.charts.find((c) => c.metric === 'wall/1 GPU')!

interface Layer {
  data: { values: Record<string, unknown>[] }
  mark: { type: string; color?: string; strokeDash?: number[] }
  encoding: Record<string, { field?: string; axis?: { labelExpr?: string; values?: number[] } }>
}
const layers = (chart: TrendChart) => (trendSpec(chart) as unknown as { layer: Layer[] }).layer
const dashedRules = (chart: TrendChart) => layers(chart).filter((l) => l.mark.type === 'rule' && l.mark.strokeDash)

describe('trend chart spec', () => {
  test('x: the runs in order, labelled by their short commit', () => {
    const x = layers(wall)[1]!.encoding.x!
    expect(x.field).toBe('x')
    const labels = JSON.parse(x.axis!.labelExpr!.replace(/\[datum\.value\].*$/, '')) as string[]
    expect(labels).toEqual(Array.from({ length: 30 }, (_, i) => syntheticCommit(i).slice(0, 7)))
    // 30 runs, at most 25 labels: every other run, and the newest.
    expect(x.axis!.values).toEqual([...Array.from({ length: 15 }, (_, i) => 2 * i), 29])
  })

  test('y: the value with its CI as a bar per point, one line per record + host + GPU', () => {
    const [bars, line] = layers(wall)
    expect(bars!.encoding.y).toMatchObject({ field: 'low' })
    expect(bars!.encoding.y2).toMatchObject({ field: 'high' })
    expect(bars!.data.values).toHaveLength(30)
    expect(line!.mark.type).toBe('line')
    expect(new Set(line!.data.values.map((v) => v.line))).toEqual(new Set(['synthetic @ synthetic-host / NVIDIA H200']))
  })

  test('a dashed rule per change point between its two runs, red for the regression, green for the recovery', () => {
    const rules = dashedRules(wall)
    expect(rules.map((r) => [r.mark.color, r.data.values.map((v) => v.x)])).toEqual([
      [REGRESSION_COLOR, [7.5]],
      [IMPROVEMENT_COLOR, [21.5]],
    ])
    const texts = layers(wall)
      .filter((l) => l.mark.type === 'text')
      .flatMap((l) => l.data.values.map((v) => v.text))
    const short = (i: number) => syntheticCommit(i).slice(0, 7)
    const pct = (i: number) => `${(trends.changes.find((c) => c.index === i)!.relativeChange * 100).toFixed(1)}%`
    expect(texts).toEqual([`${short(7)}..${short(8)} +${pct(8)}`, `${short(21)}..${short(22)} ${pct(22)}`])
  })

  test('a chart without change points has no rules', () => {
    expect(dashedRules(trends.charts.find((c) => c.metric === 'energy/1 GPU')!)).toEqual([])
  })

  test('the SVG holds one dashed rule per change point, coloured by its kind', async () => {
    const svg = await renderSvg(trendSpec(wall))
    const rules = svg.match(/<line [^>]*stroke-dasharray="6,3"[^>]*>/g) ?? []
    expect(rules).toHaveLength(2)
    expect(rules[0]).toContain(`stroke="${REGRESSION_COLOR}"`)
    expect(rules[1]).toContain(`stroke="${IMPROVEMENT_COLOR}"`)
    expect(svg).toContain(`>${syntheticCommit(0).slice(0, 7)}</text>`)
  })

  test('a commit that reads as markup or expression stays text', async () => {
    const hostile = {
      ...wall,
      positions: wall.positions.map((p, i) => (i === 0 ? { ...p, commit: `"]+'<b>x</b>` } : p)),
    }
    const svg = await renderSvg(trendSpec(hostile))
    expect(svg).toContain(`>"]+'&lt;b&gt;x&lt;/b&gt;</text>`)
    expect(svg).not.toContain('<b>')
  })
})
