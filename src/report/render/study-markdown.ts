/**
 * The settings studies in markdown (summary.md and capacity.md, after the capacity answer): per study its status and
 * sentence, then its one table with the notes (report/analyses/study-table.ts's rows laid out), or the one line that
 * says why it has none. '' without a study record: nothing is added then. Pure; text escaped here.
 */
import type { StudyEntry, StudyReport } from '../analyses/study.ts'
import { escapeMarkdown as esc } from './escape.ts'
import { mdTable } from './markdown-table.ts'

/** `**FINAL**: of 5 settings ...`: the status marked, the sentence after it (as the capacity answer's headline). */
function headline(status: string, sentence: string): string {
  const rest = sentence.startsWith(status) ? sentence.slice(status.length) : `: ${sentence}`
  return `**${esc(status)}**${esc(rest)}`
}

function entryMarkdown(e: StudyEntry): string {
  const state = e.state === 'completed' || e.state === 'partial' ? '' : ` (${e.state})`
  const title = `### ${esc(e.name)}${state}\n`
  if (e.shows === 'line') return `${title}\n**${esc(e.line)}**\n`
  const t = e.table
  const notes = t.notes.map((n) => `- ${esc(n)}`).join('\n')
  return `${title}\n${headline(e.statusText, e.sentence)}\n\n#### ${esc(t.title)}\n\n${mdTable(t.head, t.rows)}\n\n${notes}\n`
}

/** The `## Settings study` section; '' when the report holds no study record. */
export function studyMarkdown(report: StudyReport): string {
  if (report.entries.length === 0) return ''
  return `## Settings study\n\n${report.entries.map(entryMarkdown).join('\n')}`
}
