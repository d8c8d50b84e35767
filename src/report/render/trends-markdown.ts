/** summary.md's trends section: what the history holds, every change point, the newest run's judgement. Pure. */
import type { TrendsReport } from '../analyses/trends.ts'
import { escapeMarkdown as esc } from './escape.ts'
import { MAX_MD_ROWS } from './markdown-sections.ts'
import { mdTable } from './markdown-table.ts'
import {
  CHANGE_HEAD,
  changeCells,
  chartsLeftOutLine,
  commitRange,
  machineOf,
  NO_HISTORY,
  newestLine,
  regressionsLine,
  shortCommit,
  trendsLine,
  unavailableLine,
} from './trends-text.ts'

const more = (total: number, shown: number, what: string) =>
  total > shown ? `\n_${total - shown} more ${what} in summary.json._\n` : ''

function newestTable(trends: Extract<TrendsReport, { state: 'loaded' }>): string {
  const moved = trends.newest.filter((j) => j.verdict === 'regressed' || j.verdict === 'improved')
  if (moved.length === 0) return ''
  const rows = moved
    .slice(0, MAX_MD_ROWS)
    .map((j) => [
      j.verdict.toUpperCase(),
      j.metric,
      j.recordId,
      machineOf(j),
      j.windowFrom ? shortCommit(j.windowFrom) : 'history start',
      j.verdict === 'regressed' ? commitRange({ fromKey: j.onsetFrom, toKey: j.onsetTo }) : '',
      `${j.basis}: ${j.reason}`,
    ])
  const head = ['verdict', 'metric', 'record', 'host / GPU', 'window from', 'regressed in', 'compared']
  return `\n${mdTable(head, rows)}\n${more(moved.length, rows.length, 'judgements')}`
}

export function trendsMarkdown(trends: TrendsReport | null): string {
  if (trends === null) return `_${esc(NO_HISTORY)}_\n`
  if (trends.state === 'unavailable') return `> **${esc(unavailableLine(trends))}**\n`
  const lines = [esc(trendsLine(trends)), '']
  const leftOut = chartsLeftOutLine(trends)
  lines.push(
    `Charts: index.html (${trends.charts.length} drawn).${leftOut ? ` ${esc(leftOut)}` : ''}`,
    '',
    '### Change points',
    '',
  )
  const rows = trends.changes.slice(0, MAX_MD_ROWS).map(changeCells)
  lines.push(
    rows.length ? mdTable(CHANGE_HEAD, rows) : '_No change points._',
    more(trends.changes.length, rows.length, 'change points'),
  )
  lines.push('### Newest run', '')
  const newest = newestLine(trends)
  if (newest) lines.push(esc(newest))
  lines.push(newestTable(trends), `**${esc(regressionsLine(trends))}**`)
  const [first] = trends.notJudged
  if (first)
    lines.push(
      '',
      esc(`${trends.notJudged.length} series not judged, e.g. ${first.metric} of ${first.recordId}: ${first.reason}`),
    )
  return `${lines.join('\n')}\n`
}
