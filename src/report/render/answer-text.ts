/**
 * The capacity answer for a terminal (the `report` command's summary and the `capacity` command): the view of
 * capacity/answer-table.ts laid out as aligned columns, the same rows, units and words as capacity.md. Pure: lines out,
 * raw text (callers escape control characters).
 */
import type { AnswerTableId, AnswerView } from '../../capacity/answer-table.ts'

export interface AnswerTextParts {
  /** The tables shown, in the view's order; all when absent. */
  tables?: readonly AnswerTableId[]
  /** The design, guarantee and decisions (default true). */
  decisions?: boolean
  /** Every definition at the end (default true; a table's own stay in its notes either way). */
  definitions?: boolean
}

/** Rows with each column padded to its widest cell. */
export function alignedRows(head: readonly string[], rows: readonly (readonly string[])[]): string[] {
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)))
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (i === cells.length - 1 ? c : c.padEnd(widths[i] ?? 0)))
      .join('  ')
      .trimEnd()
  return [line(head), ...rows.map(line)]
}

/** The sentence, each undecided verdict's reason indented under it, then the parts asked for. */
export function answerTextLines(view: AnswerView, parts: AnswerTextParts = {}): string[] {
  const lines = [view.sentence, ...view.reasons.map((r) => `  ${r}`)]
  for (const t of view.tables.filter((t) => !parts.tables || parts.tables.includes(t.id))) {
    lines.push(`${t.title}:`, ...alignedRows(t.head, t.rows).map((l) => `  ${l}`))
    for (const n of t.notes) lines.push(`  ${n}`)
  }
  if (parts.decisions ?? true) {
    lines.push(view.design, view.guarantee)
    if (view.decisions.length) lines.push('Decisions:', ...view.decisions.map((d) => `  ${d}`))
  }
  if (parts.definitions ?? true) lines.push('Definitions:', ...view.definitions.map((d) => `  ${d}`))
  return lines
}
