/**
 * index.html's trends section: what the history holds in one line, the newest run's judgement, one chart per
 * headline metric (trend-chart.ts) and the table of every change point. Every string from the history is escaped.
 */
import type { TrendChart } from '../analyses/trend-charts.ts'
import type { TrendsReport } from '../analyses/trends.ts'
import { renderSvg } from './charts.ts'
import { escapeHtml as h } from './escape.ts'
import { table } from './html-table.ts'
import { trendSpec, valueTitle } from './trend-chart.ts'
import {
  CHANGE_HEAD,
  changeCells,
  chartsLeftOutLine,
  NO_HISTORY,
  newestLine,
  regressionsLine,
  trendsLine,
  unavailableLine,
} from './trends-text.ts'

export const TRENDS_HEADING = '<h2>Trends over the history</h2>'

function chartCaption(chart: TrendChart): string {
  const parts = [`${chart.lines.length} line(s)`]
  if (chart.linesLeftOut) parts.push(`${chart.linesLeftOut} more not drawn`)
  parts.push(
    chart.changes === 0
      ? 'no change points'
      : `${chart.changes} change point(s), ${chart.regressions} regression(s)${chart.marks.length < chart.changes ? `, ${chart.marks.length} inside the drawn runs` : ''}`,
  )
  return `${valueTitle(chart)}; ${parts.join(', ')}`
}

async function chartHtml(chart: TrendChart): Promise<string> {
  const svg = await renderSvg(trendSpec(chart))
  return `<h3>${h(chart.metric)}</h3><p>${h(chartCaption(chart))}</p><div class="chart trend">${svg}</div>`
}

export async function trendsSection(trends: TrendsReport | null): Promise<string> {
  if (trends === null) return `${TRENDS_HEADING}<p>${h(NO_HISTORY)}</p>`
  if (trends.state === 'unavailable') return `${TRENDS_HEADING}<p class="note">${h(unavailableLine(trends))}</p>`
  const newest = newestLine(trends)
  const atNewest = regressionsLine(trends)
  const charts: string[] = []
  for (const chart of trends.charts) charts.push(await chartHtml(chart))
  const leftOut = chartsLeftOutLine(trends)
  const row = (i: number) => {
    const c = trends.changes[i]!
    const [kind, ...rest] = changeCells(c)
    return [`<span class="${c.regression ? 'fail' : 'pass'}">${h(kind!)}</span>`, ...rest.map(h)]
  }
  return [
    TRENDS_HEADING,
    `<p>${h(trendsLine(trends))}</p>`,
    newest ? `<p>${h(newest)}</p>` : '',
    `<p${trends.regressions.length + trends.suspects.length ? ' class="note"' : ''}><strong>${h(atNewest)}</strong></p>`,
    trends.charts.length ? charts.join('\n') : '<p>No headline series with two or more points yet.</p>',
    leftOut ? `<p>${h(leftOut)}</p>` : '',
    '<h3>Change points</h3>',
    trends.changes.length ? table(CHANGE_HEAD, trends.changes.length, row) : '<p>No change points.</p>',
  ].join('\n')
}
