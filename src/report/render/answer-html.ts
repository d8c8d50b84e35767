/**
 * The capacity answer in index.html: the view of capacity/answer-table.ts laid out as HTML tables, the same rows,
 * units and words as capacity.md. Pure; every string escaped.
 */
import type { AnswerView } from '../../capacity/answer-table.ts'
import { escapeHtml as h } from './escape.ts'
import { table } from './html-table.ts'

const list = (lines: readonly string[]) => `<ul>${lines.map((l) => `<li>${h(l)}</li>`).join('')}</ul>`

export function answerHtml(view: AnswerView): string {
  const rest = view.sentence.startsWith(view.status) ? view.sentence.slice(view.status.length) : `: ${view.sentence}`
  const parts = [`<p class="answer"><strong>${h(view.status)}</strong>${h(rest)}</p>`]
  // Each undecided verdict's reason right under the sentence that names it undecided.
  if (view.reasons.length) parts.push(list(view.reasons))
  for (const t of view.tables) {
    parts.push(
      `<h4>${h(t.title)}</h4>`,
      table(t.head, t.rows.length, (i) => (t.rows[i] ?? []).map(h)),
    )
    parts.push(...t.notes.map((n) => `<p>${h(n)}</p>`))
  }
  parts.push(`<p>${h(view.design)}</p>`, `<p>${h(view.guarantee)}</p>`)
  if (view.decisions.length) parts.push('<h4>Decisions</h4>', list(view.decisions))
  parts.push('<h4>Definitions</h4>', list(view.definitions))
  return parts.join('\n')
}
