/**
 * The settings studies for a terminal (the `capacity` command, after the capacity answer): the same status, sentence,
 * rows and notes as summary.md (report/analyses/study-table.ts), as aligned columns, or the one line a study without
 * a table has. No lines without a study record. Pure: raw text out (callers escape control characters).
 */
import type { StudyEntry, StudyReport } from '../analyses/study.ts'
import { alignedRows } from './answer-text.ts'

function entryLines(e: StudyEntry): string[] {
  const title = `${e.name} (record ${e.recordId}):`
  if (e.shows === 'line') return [title, `  ${e.line}`]
  const t = e.table
  return [
    title,
    `  ${e.sentence}`,
    `  ${t.title}:`,
    ...alignedRows(t.head, t.rows).map((l) => `    ${l}`),
    ...t.notes.map((n) => `  ${n}`),
  ]
}

export function studyTextLines(report: StudyReport): string[] {
  if (report.entries.length === 0) return []
  return ['Settings study:', ...report.entries.flatMap(entryLines)]
}
