import fc from 'fast-check'
import { expect, test } from 'vitest'
import { closestMatch, editDistance } from '../../src/config/closest.ts'

const word = fc.string({ unit: fc.constantFrom(...'abcdefghij-'), maxLength: 12 })

test('edit distance: known values', () => {
  expect(editDistance('kitten', 'sitting')).toBe(3)
  expect(editDistance('interval', 'interval-ms')).toBe(3)
  expect(editDistance('', 'abc')).toBe(3)
  expect(editDistance('doctor', 'doctor')).toBe(0)
})

test('property: a metric (zero only for equal strings, symmetric, triangle inequality) bounded by the longer length', () => {
  fc.assert(
    fc.property(word, word, word, (a, b, c) => {
      const ab = editDistance(a, b)
      expect(ab === 0).toBe(a === b)
      expect(ab).toBe(editDistance(b, a))
      expect(ab).toBeLessThanOrEqual(editDistance(a, c) + editDistance(c, b))
      expect(ab).toBeGreaterThanOrEqual(Math.abs(a.length - b.length))
      expect(ab).toBeLessThanOrEqual(Math.max(a.length, b.length))
    }),
  )
})

test('property: one edit away from a lone candidate of 3+ letters finds it; dashes do not count', () => {
  const edited = fc
    .tuple(
      fc.string({ unit: fc.constantFrom(...'abcdefghij'), minLength: 3, maxLength: 12 }),
      fc.nat(),
      fc.constantFrom('x', ''),
    )
    .map(([name, at, insert]) => {
      const i = at % name.length
      return { name, typo: name.slice(0, i) + insert + name.slice(i + 1) }
    })
  fc.assert(
    fc.property(edited, ({ name, typo }) => {
      expect(closestMatch(`--${typo}`, [`--${name}`])).toBe(`--${name}`)
    }),
  )
})

test('nothing near is no suggestion; the nearest of several wins', () => {
  expect(closestMatch('frobnicate', ['doctor', 'fixtures', 'monitor', 'report'])).toBeUndefined()
  expect(closestMatch('--bogus', ['--json', '--help'])).toBeUndefined()
  expect(closestMatch('x', [])).toBeUndefined()
  expect(closestMatch('--max-lenght', ['--min-length', '--max-length'])).toBe('--max-length')
})
