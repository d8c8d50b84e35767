import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { boundLine, cutMarker, keptLine } from '../../src/pipeline/kept-line.ts'

// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what a kept line must not hold.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

describe('keptLine', () => {
  test('a short line is kept as it is', () => {
    expect(keptLine({ text: 'Batch 3: 300/900', cutBytes: 0 })).toBe('Batch 3: 300/900')
  })

  test('a long line keeps its first characters and says how many bytes were cut, those the reader dropped too', () => {
    expect(keptLine({ text: 'x'.repeat(1_500), cutBytes: 9_998_500 })).toBe(
      `${'x'.repeat(1_000)}…[9,999,000 bytes cut]`,
    )
  })

  test('control characters are escaped, never kept raw', () => {
    expect(keptLine({ text: '\x1b[31mERROR\x1b[0m \0 end', cutBytes: 0 })).toBe(
      '\\u001b[31mERROR\\u001b[0m \\u0000 end',
    )
  })

  test('any line: bounded, no control character, and the bytes it shows plus those cut are the whole line', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), fc.integer({ min: 1, max: 30 }), (text, max) => {
        const bound = boundLine({ text, cutBytes: 0 }, max)
        expect(bound.text.length).toBeLessThanOrEqual(max)
        expect(text.startsWith(bound.text)).toBe(true)
        expect(Buffer.byteLength(bound.text) + bound.cutBytes).toBe(Buffer.byteLength(text))
        const kept = keptLine({ text, cutBytes: 0 }, max)
        expect(CONTROL.test(kept)).toBe(false)
        if (bound.cutBytes > 0) expect(kept.endsWith(cutMarker(bound.cutBytes))).toBe(true)
      }),
    )
  })
})
