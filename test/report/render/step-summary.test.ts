import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { STEP_SUMMARY_LIMIT_BYTES, stepSummaryOf } from '../../../src/report/render/step-summary.ts'

const FULL = 'reports/summary.md'
const bytes = (text: string) => Buffer.byteLength(text)

// Lines of table rows, headings, fences and text in several scripts: 1- to 4-byte UTF-8 characters.
const line = fc.oneof(
  fc.string({ unit: 'grapheme', maxLength: 40 }).map((s) => s.replaceAll('\n', ' ')),
  fc.constantFrom('| a | b |', '|---|---|', '| µs | 😀 |', '```', '## Trends', 'Ω≈ç√∫', ''),
)

describe('the job summary', () => {
  test('a summary that fits is written whole', () => {
    expect(stepSummaryOf('# r\n\n| a |\n', FULL)).toBe('# r\n\n| a |\n')
  })

  test('a longer one is cut after a whole line, within the limit, never inside a UTF-8 character', () => {
    fc.assert(
      fc.property(
        fc.array(line, { minLength: 1, maxLength: 200 }),
        fc.integer({ min: 300, max: 3000 }),
        (lines, limit) => {
          const markdown = `${lines.join('\n')}\n`
          const out = stepSummaryOf(markdown, FULL, limit)
          if (bytes(markdown) <= limit) {
            expect(out).toBe(markdown)
            return
          }
          expect(bytes(out)).toBeLessThanOrEqual(limit)
          expect(out).not.toContain('\uFFFD')
          const [body, note] = out.split('\n\n_Cut here, ')
          expect(note).toMatch(
            new RegExp(
              `^after line \\d+ of ${lines.length}: a job summary holds 1 MiB\\. The full report is ${FULL}\\._\\n$`,
            ),
          )
          const kept = body!.split('\n')
          const closing = kept.length > 0 && kept.at(-1) === '```' && !markdown.startsWith(`${kept.join('\n')}\n`)
          const own = closing ? kept.slice(0, -1) : kept
          // Whole lines of the original, in order: no row cut in two.
          expect(markdown.startsWith(own.length ? `${own.join('\n')}\n` : '')).toBe(true)
          expect(own.filter((l) => /^\s*```/.test(l)).length % 2 === 1).toBe(closing)
        },
      ),
    )
  })

  test("GitHub's 1 MiB: a 3 MiB summary of multi-byte table rows is cut at a row, saying where the full report is", () => {
    const row = '| wall/1 GPU | 😀 µs | 12.3 ± 0.4 |'
    const markdown = `# Report\n\n| metric | unit | value |\n|---|---|---|\n${`${row}\n`.repeat((3 * STEP_SUMMARY_LIMIT_BYTES) / bytes(row))}`
    const out = stepSummaryOf(markdown, FULL)
    expect(bytes(out)).toBeLessThanOrEqual(STEP_SUMMARY_LIMIT_BYTES)
    const lines = out.split('\n')
    expect(lines.at(-2)).toMatch(/^_Cut here, after line \d+ of \d+: .* The full report is reports\/summary\.md\._$/)
    expect(lines.at(-4)).toBe(row)
  })
})
