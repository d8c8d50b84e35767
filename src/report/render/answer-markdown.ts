/**
 * The capacity answer in markdown (capacity/answer-table.ts's view laid out): the status and the sentence first, then
 * each table with its notes, the design, the guarantee, the decisions and the definitions. A report that shows only
 * part of the evidence (bottleneck.md: time by stage; perf02.md: PERF-02) names its tables. Pure; text escaped here.
 */
import type { AnswerTableId, AnswerView } from '../../capacity/answer-table.ts'
import { escapeMarkdown as esc } from './escape.ts'
import { mdTable } from './markdown-table.ts'

const list = (lines: readonly string[]) => lines.map((l) => `- ${esc(l)}`).join('\n')

/**
 * `**PROVISIONAL (11 of 12 runs)**: 6 M sequences take ...`: the status marked, the sentence after it, and each
 * undecided verdict's reason listed under it.
 */
export function answerHeadline(view: AnswerView): string {
  const rest = view.sentence.startsWith(view.status) ? view.sentence.slice(view.status.length) : `: ${view.sentence}`
  const reasons = view.reasons.length ? `\n\n${list(view.reasons)}` : ''
  return `**${esc(view.status)}**${esc(rest)}${reasons}`
}

export interface AnswerParts {
  /** The tables shown, in the view's order; all when absent. */
  tables?: readonly AnswerTableId[]
  /** The design, guarantee and decisions (default true). */
  decisions?: boolean
  /** Markdown heading of each table (`####` under an entry's `###`). */
  heading?: string
}

export function answerMarkdown(view: AnswerView, parts: AnswerParts = {}): string {
  const heading = parts.heading ?? '####'
  const tables = view.tables.filter((t) => !parts.tables || parts.tables.includes(t.id))
  const out = [`${answerHeadline(view)}\n`]
  for (const t of tables) {
    const notes = t.notes.length ? `\n${t.notes.map((n) => esc(n)).join('\n\n')}\n` : ''
    out.push(`${heading} ${esc(t.title)}\n\n${mdTable(t.head, t.rows)}\n${notes}`)
  }
  if (parts.decisions ?? true) {
    out.push(`${esc(view.design)}\n\n${esc(view.guarantee)}\n`)
    if (view.decisions.length) out.push(`${heading} Decisions\n\n${list(view.decisions)}\n`)
  }
  out.push(`${heading} Definitions\n\n${list(view.definitions)}\n`)
  return out.join('\n')
}
