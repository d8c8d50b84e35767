import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { escapeHtml, escapeMarkdown } from '../../../src/report/render/escape.ts'

describe('escaping', () => {
  test('escapeHtml leaves no markup characters and round-trips through entity decoding', () => {
    const decode = (s: string) =>
      s.replace(
        /&lt;|&gt;|&quot;|&#39;|&amp;/g,
        (e) => ({ '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&amp;': '&' })[e] as string,
      )
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (text) => {
        const out = escapeHtml(text)
        expect(out).not.toMatch(/[<>"']/)
        expect(decode(out)).toBe(text)
      }),
    )
  })

  test('escapeMarkdown output never opens a cell, code span, tag or new line', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const out = escapeMarkdown(text)
        expect(out).not.toMatch(/[<>\n\r]/)
        // every | and ` is preceded by a backslash that is itself not escaped
        expect(out.replace(/\\\\/g, '')).not.toMatch(/(^|[^\\])[|`]/)
      }),
    )
  })

  test('entities stay whole, and quotes stay quotes', () => {
    expect(escapeMarkdown('the stage\'s start & "end" #1')).toBe('the stage\'s start &amp; "end" \\#1')
    // Any entity in the output is one the escaping made: & < > only, never a backslash inside one.
    fc.assert(
      fc.property(fc.string(), (text) => {
        for (const m of escapeMarkdown(text).matchAll(/&[^;\s]*;/g)) expect(['&amp;', '&lt;', '&gt;']).toContain(m[0])
      }),
    )
  })

  test('a hostile name', () => {
    expect(escapeMarkdown('<script>x</script> | `a`')).toBe('&lt;script&gt;x&lt;/script&gt; \\| \\`a\\`')
  })
})
