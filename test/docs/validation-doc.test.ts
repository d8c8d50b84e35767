/**
 * docs/VALIDATION.md is where a newcomer checks whether to trust the suite's answers (issue 44). It must stay
 * scannable: one claim a row, every cell short, the detail one link away. The rules, checked on every table:
 * - the columns are exactly COLUMNS, in that order;
 * - no cell renders longer than MAX_CELL_CHARS (two lines of a page; a link counts by its visible text);
 * - the date is a real YYYY-MM-DD (the date of the run the figure comes from);
 * - "pass or not" is one word of VERDICTS, the vocabulary the page explains at its top;
 * - the detail cell holds at least one relative link, and each names a file or folder that exists (and, for
 *   `file.md#anchor`, a heading or `<a id>` of that file).
 * VALIDATION_DOC=<path> points the rules at another copy (e.g. the page as it was: they must fail on it).
 */

import { existsSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { anchors, links, readTables, renderedText, splitRow, type Table } from './support/markdown-table.ts'

const COLUMNS = ['what is checked', 'figure', 'pass or not', 'date', 'detail']
const MAX_CELL_CHARS = 120
/**
 * pass: the claim held. fail: it did not. partly: part held, the detail says which. fixed: the check found a fault,
 * fixed since. not shown: the runs did not decide it. not run: not measured.
 */
const VERDICTS = ['pass', 'fail', 'partly', 'fixed', 'not shown', 'not run']

const DOC_PATH = process.env.VALIDATION_DOC ?? fileURLToPath(new URL('../../docs/VALIDATION.md', import.meta.url))
const DOC_DIR = dirname(DOC_PATH)
const tables = readTables(readFileSync(DOC_PATH, 'utf8'))

/** The tables whose columns are the five, so that each cell's meaning is known. */
const conforming = (all: Table[]) => all.filter((t) => t.header.map(renderedText).join('|') === COLUMNS.join('|'))

/** Each row's cell in `column`, with the row's line, for the conforming tables. */
function cellsOf(column: string): { line: number; cell: string }[] {
  const at = COLUMNS.indexOf(column)
  return conforming(tables).flatMap((t) => t.rows.map((r) => ({ line: r.line, cell: r.cells[at] ?? '' })))
}

/** Why a detail link does not lead anywhere, or null when it does. */
function brokenLink(target: string): string | null {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target) || target.startsWith('/')) return 'not a relative link'
  const [path = '', anchor] = target.split('#')
  const file = resolve(DOC_DIR, path)
  if (!existsSync(file)) return `${path} does not exist`
  if (anchor === undefined) return null
  const markdown = statSync(file).isDirectory() ? join(file, 'README.md') : file
  if (!markdown.endsWith('.md') || !existsSync(markdown)) return `#${anchor} points into a file that is not markdown`
  return anchors(readFileSync(markdown, 'utf8')).has(anchor) ? null : `no heading or <a id> '${anchor}' in ${path}`
}

describe(`${DOC_PATH}`, () => {
  test('has tables', () => {
    expect(tables.length).toBeGreaterThan(0)
  })

  test('every table has the five columns, in order', () => {
    const wrong = tables
      .filter((t) => !conforming([t]).length)
      .map(
        (t) => `line ${t.line}: columns ${JSON.stringify(t.header.map(renderedText))}, want ${JSON.stringify(COLUMNS)}`,
      )
    expect(wrong).toEqual([])
  })

  test(`no cell renders longer than ${MAX_CELL_CHARS} characters`, () => {
    const long = tables.flatMap((t) =>
      [{ line: t.line, cells: t.header }, ...t.rows].flatMap(({ line, cells }) =>
        cells
          .map((cell, i) => ({ i, chars: [...renderedText(cell)].length }))
          .filter(({ chars }) => chars > MAX_CELL_CHARS)
          .map(({ i, chars }) => `line ${line}, cell ${i + 1}: ${chars} characters`),
      ),
    )
    expect(long).toEqual([])
  })

  test('every row has one cell a column', () => {
    const ragged = conforming(tables).flatMap((t) =>
      t.rows.filter((r) => r.cells.length !== COLUMNS.length).map((r) => `line ${r.line}: ${r.cells.length} cells`),
    )
    expect(ragged).toEqual([])
  })

  test('every date is a real YYYY-MM-DD', () => {
    const real = (date: string) => {
      const parsed = new Date(date)
      return (
        /^\d{4}-\d{2}-\d{2}$/.test(date) && !Number.isNaN(parsed.getTime()) && parsed.toISOString().startsWith(date)
      )
    }
    const bad = cellsOf('date')
      .filter(({ cell }) => !real(cell))
      .map(({ line, cell }) => `line ${line}: '${cell}'`)
    expect(bad).toEqual([])
  })

  test(`every "pass or not" is one of: ${VERDICTS.join(', ')}`, () => {
    const bad = cellsOf('pass or not')
      .filter(({ cell }) => !VERDICTS.includes(renderedText(cell)))
      .map(({ line, cell }) => `line ${line}: '${cell}'`)
    expect(bad).toEqual([])
  })

  test('every detail links to a file or folder that exists', () => {
    const bad = cellsOf('detail').flatMap(({ line, cell }) => {
      const found = links(cell)
      if (found.length === 0) return [`line ${line}: no link in '${cell}'`]
      return found.flatMap(({ target }) => {
        const why = brokenLink(target)
        return why === null ? [] : [`line ${line}: ${target}: ${why}`]
      })
    })
    expect(bad).toEqual([])
  })
})

describe('the table reader', () => {
  test('an escaped pipe stays in its cell, and renders as a pipe', () => {
    const cells = splitRow("| `'a' \\| 'b'` | two |")
    expect(cells).toEqual(["`'a' \\| 'b'`", 'two'])
    expect(renderedText(cells[0]!)).toBe("'a' | 'b'")
  })

  test('a link counts by its visible text; emphasis and backticks do not count', () => {
    expect(renderedText('**+0.5%**: see [h200](results/2026-11-22-h200/README.md#projection), `h3a1`')).toBe(
      '+0.5%: see h200, h3a1',
    )
  })

  test('a code span keeps what would be markup outside it', () => {
    expect(renderedText('`**x** [a](b)`')).toBe('**x** [a](b)')
    expect(links('`[a](b)` and [c](d)')).toEqual([{ text: 'c', target: 'd' }])
  })

  test('a row split on its unescaped pipes gives back its cells', () => {
    const cell = fc.string().filter((s) => !/[\n\\`]/.test(s) && s.trim() === s)
    fc.assert(
      fc.property(fc.array(cell, { minLength: 1, maxLength: 6 }), (cells) => {
        const escaped = cells.map((c) => c.replaceAll('|', '\\|'))
        expect(splitRow(`| ${escaped.join(' | ')} |`)).toEqual(escaped)
      }),
    )
  })
})
