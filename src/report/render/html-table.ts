/** Table pieces of index.html, shared by its sections: cells arrive escaped (or as markup the caller built). */
import { escapeHtml as h } from './escape.ts'

export const MAX_TABLE_ROWS = 500

export const tr = (cells: string[]) => `<tr>${cells.map((c) => `<td>${c}</td>`).join('')}</tr>`

/**
 * A table of the first MAX_TABLE_ROWS of `total` rows; `row(i)` renders row i (escaped cells), so the rows past the
 * limit (10^5 in a large run) are never formatted.
 */
export function table(header: string[], total: number, row: (index: number) => string[]): string {
  const shown = Math.min(total, MAX_TABLE_ROWS)
  const more = total > shown ? `<p>${total - shown} more rows in the JSON reports.</p>` : ''
  const head = `<tr>${header.map((c) => `<th>${h(c)}</th>`).join('')}</tr>`
  const body: string[] = []
  for (let i = 0; i < shown; i++) body.push(tr(row(i)))
  return `<table>${head}${body.join('')}</table>${more}`
}

export const verdictCell = (v: string) => `<span class="${h(v)}">${h(v.toUpperCase())}</span>`
