import fc from 'fast-check'
import { expect, test } from 'vitest'
import { escapeControls } from '../../src/platform/one-line.ts'

// biome-ignore lint/suspicious/noControlCharactersInRegex: the C0 and C1 controls and DEL are what must not remain.
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/

test('no control character remains, whatever the text', () => {
  fc.assert(
    fc.property(fc.string({ unit: 'binary' }), (text) => {
      expect(escapeControls(text)).not.toMatch(CONTROL)
    }),
  )
})

test('text without control characters is left as it is', () => {
  const printable = fc.string({ unit: 'binary' }).map((text) => text.replace(new RegExp(CONTROL, 'g'), ''))
  fc.assert(
    fc.property(printable, (text) => {
      expect(escapeControls(text)).toBe(text)
    }),
  )
})

test('each control character reads as its escape, the common ones as JSON writes them', () => {
  expect(escapeControls('a\nb\tc\rd')).toBe('a\\nb\\tc\\rd')
  expect(escapeControls('\u0000\u001b\u007f\u0085')).toBe('\\u0000\\u001b\\u007f\\u0085')
})
