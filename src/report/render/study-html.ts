/**
 * The settings studies in index.html, after the capacity answer: the same status, sentence, rows and notes as
 * summary.md (report/analyses/study-table.ts), laid out as an HTML table, or the one line a study without a table has.
 * '' without a study record. Pure; every string escaped.
 */
import type { StudyEntry, StudyReport } from '../analyses/study.ts'
import { escapeHtml as h } from './escape.ts'
import { table } from './html-table.ts'

function entryHtml(e: StudyEntry): string {
  const state = e.state === 'completed' || e.state === 'partial' ? '' : ` (${e.state})`
  const title = `<h3>${h(e.name + state)}</h3>`
  if (e.shows === 'line') return `${title}\n<p class="note">${h(e.line)}</p>`
  const t = e.table
  const rest = e.sentence.startsWith(e.statusText) ? e.sentence.slice(e.statusText.length) : `: ${e.sentence}`
  return [
    title,
    `<p class="answer"><strong>${h(e.statusText)}</strong>${h(rest)}</p>`,
    `<h4>${h(t.title)}</h4>`,
    table(t.head, t.rows.length, (i) => (t.rows[i] ?? []).map(h)),
    ...t.notes.map((n) => `<p>${h(n)}</p>`),
  ].join('\n')
}

/** The settings study section; '' when the report holds no study record. */
export function studySection(report: StudyReport): string {
  if (report.entries.length === 0) return ''
  return `<h2>Settings study</h2>\n${report.entries.map(entryHtml).join('\n')}`
}
