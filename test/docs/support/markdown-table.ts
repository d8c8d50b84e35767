/**
 * A small reader of GitHub-flavoured markdown tables, for tests that hold a document to a form (docs/VALIDATION.md).
 * No markdown parser is among the dependencies, and a table is simple: lines starting with `|`, the second a
 * delimiter row. GFM splits a row on every pipe not escaped as `\|`, inside code spans too, so a code span is no
 * shelter for a pipe; code spans matter for the rendered text, where `**` or `[a](b)` inside them is literal.
 */

/** One table: its header cells and rows, each with the 1-based line it sits on. */
export interface Table {
  line: number
  header: string[]
  rows: { line: number; cells: string[] }[]
}

const DELIMITER_ROW = /^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?\s*$/
const FENCE = /^\s*(```|~~~)/

/** Splits a table line into its raw cells (trimmed, escapes kept) on the pipes GFM splits on. */
export function splitRow(line: string): string[] {
  let body = line.trim()
  if (body.startsWith('|')) body = body.slice(1)
  if (body.endsWith('|') && !body.endsWith('\\|')) body = body.slice(0, -1)
  const cells: string[] = []
  let cell = ''
  for (let i = 0; i < body.length; i++) {
    if (body[i] === '\\' && body[i + 1] === '|') {
      cell += '\\|'
      i++
    } else if (body[i] === '|') {
      cells.push(cell.trim())
      cell = ''
    } else cell += body[i]
  }
  cells.push(cell.trim())
  return cells
}

/** Lines outside fenced code blocks, with their 1-based numbers. */
export function proseLines(markdown: string): { line: number; text: string }[] {
  const out: { line: number; text: string }[] = []
  let fenced = false
  markdown.split('\n').forEach((text, i) => {
    if (FENCE.test(text)) fenced = !fenced
    else if (!fenced) out.push({ line: i + 1, text })
  })
  return out
}

/** Every table of a markdown document, in order. */
export function readTables(markdown: string): Table[] {
  const lines = proseLines(markdown)
  const tables: Table[] = []
  for (let i = 0; i + 1 < lines.length; i++) {
    const head = lines[i]!
    const delimiter = lines[i + 1]!
    if (!head.text.trim().startsWith('|') || !DELIMITER_ROW.test(delimiter.text.trim())) continue
    const table: Table = { line: head.line, header: splitRow(head.text), rows: [] }
    let j = i + 2
    for (; j < lines.length && lines[j]!.text.trim().startsWith('|'); j++)
      table.rows.push({ line: lines[j]!.line, cells: splitRow(lines[j]!.text) })
    tables.push(table)
    i = j - 1
  }
  return tables
}

/** The text outside code spans as it renders: links and images by their visible text, no emphasis, no tags. */
function renderProse(text: string): string {
  return text
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .replace(/(\*\*|__)(.+?)\1/g, '$2')
    .replace(/\*(\S(?:.*?\S)?)\*/g, '$1')
    .replace(/(^|[^\p{L}\p{N}])_(\S(?:.*?\S)?)_(?=$|[^\p{L}\p{N}])/gu, '$1$2')
    .replace(/\\([!-/:-@[-`{-~])/g, '$1')
}

/** A cell's (or heading's) text as a reader sees it: code spans without their backticks, `\|` as `|`. */
export function renderedText(markdown: string): string {
  const text = markdown.replace(/\\\|/g, '|')
  let out = ''
  let last = 0
  for (const span of text.matchAll(/(`+)([\s\S]*?[^`])\1(?!`)/g)) {
    out += renderProse(text.slice(last, span.index)) + span[2]!.trim()
    last = span.index + span[0].length
  }
  return out + renderProse(text.slice(last))
}

/** The links of a cell outside its code spans: visible text and target. */
export function links(markdown: string): { text: string; target: string }[] {
  const prose = markdown.replace(/(`+)([\s\S]*?[^`])\1(?!`)/g, '')
  return [...prose.matchAll(/\[([^\]]*)\]\(([^)\s]*)\)/g)].map((m) => ({ text: m[1]!, target: m[2]! }))
}

/** The anchor GitHub gives a heading: lower case, punctuation dropped, spaces as hyphens. */
export function headingSlug(heading: string): string {
  return renderedText(heading)
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc} -]/gu, '')
    .replace(/ /g, '-')
}

/** Every anchor a markdown document offers: its headings' slugs (repeats numbered as GitHub does) and `<a id>`s. */
export function anchors(markdown: string): Set<string> {
  const found = new Set<string>()
  const seen = new Map<string, number>()
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(text)
    if (heading) {
      const slug = headingSlug(heading[1]!)
      const count = seen.get(slug) ?? 0
      seen.set(slug, count + 1)
      found.add(count === 0 ? slug : `${slug}-${count}`)
    }
    for (const a of text.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) found.add(a[1]!)
  }
  return found
}
