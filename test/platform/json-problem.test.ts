import fc from 'fast-check'
import { expect, test } from 'vitest'
import { jsonSyntaxProblem } from '../../src/platform/json-problem.ts'

/** Every reason there is: fixed words, a place, a hint. Nothing of the text fits in it but a quoted punctuation mark. */
const REASON =
  /^(empty: no JSON in it|not valid JSON: [a-z ',:}\]-]+?( at (line \d+, column \d+|character \d+))?( \(cut short while written\?\))?)$/

function problemOf(text: string): string | null {
  try {
    JSON.parse(text)
    return null
  } catch (error) {
    return jsonSyntaxProblem(error, text)
  }
}

test('the reason for any text that is no JSON is one of the fixed forms: it never quotes the text', () => {
  // Noise, and JSON cut anywhere (a crash while written), with a word a file linked in from elsewhere might hold.
  const cut = fc.tuple(fc.json(), fc.nat()).map(([json, at]) => json.slice(0, at % (json.length + 1)))
  const secret = fc.string({ unit: 'binary' }).map((text) => `SECRET${text}`)
  fc.assert(
    fc.property(fc.oneof(fc.string({ unit: 'binary' }), cut, secret), (text) => {
      const reason = problemOf(text)
      if (reason === null) return
      expect(reason).toMatch(REASON)
      expect(reason).not.toContain('SECRET')
    }),
  )
})

test('what V8 says without quoting is kept with its place; what it quotes is left out', () => {
  expect(problemOf('{"a": "abc')).toBe(
    'not valid JSON: unterminated string at line 1, column 11 (cut short while written?)',
  )
  expect(problemOf('{"a": ')).toBe('not valid JSON: it ends early (cut short while written?)')
  expect(problemOf('{"id"')).toBe(
    "not valid JSON: expected ':' after property name at line 1, column 6 (cut short while written?)",
  )
  expect(problemOf('{"a" 1}')).toBe("not valid JSON: expected ':' after property name at line 1, column 6")
  expect(problemOf('TOP SECRET password')).toBe('not valid JSON: an unexpected character')
  expect(problemOf(' \n')).toBe('empty: no JSON in it')
})
