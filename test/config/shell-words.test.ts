import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { quoteShellWord, ShellWordsError, splitShellWords } from '../../src/config/shell-words.ts'

// Words as an argument vector can hold them: any text but NUL.
const word = fc.string({ unit: 'binary', maxLength: 12 }).filter((w) => !w.includes('\0'))
const plain = fc.stringMatching(/^[A-Za-z0-9_=,.:/+-]{1,10}$/)
const blanks = fc.stringMatching(/^[ \t\n]{1,3}$/)

describe('splitShellWords: words as a shell splits them', () => {
  test('any words, each quoted, joined by any blanks, come back whole and in order', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(word, blanks)), (pairs) => {
        const text = pairs.map(([w, gap]) => `${quoteShellWord(w)}${gap}`).join('')
        expect(splitShellWords(text)).toEqual(pairs.map(([w]) => w))
      }),
    )
  })

  test('plain words need no quotes; blanks around them are not words', () => {
    fc.assert(
      fc.property(fc.array(plain), blanks, blanks, (words, lead, trail) => {
        expect(splitShellWords(`${lead}${words.join(' \t')}${trail}`)).toEqual(words)
      }),
    )
  })

  test('any text is split or refused with a ShellWordsError whose position lies in it, nothing else', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 30 }), (text) => {
        try {
          expect(Array.isArray(splitShellWords(text))).toBe(true)
        } catch (error) {
          expect(error).toBeInstanceOf(ShellWordsError)
          const { position } = error as ShellWordsError
          expect(position).toBeGreaterThanOrEqual(1)
          expect(position).toBeLessThanOrEqual(text.length)
        }
      }),
    )
  })

  test.for([
    [`--a 'b c' "d e" f\\ g`, ['--a', 'b c', 'd e', 'f g']],
    [`--x "a\\"b" 'it'\\''s'`, ['--x', 'a"b', "it's"]],
    [`''`, ['']],
    [`"a\\nb"`, ['a\\nb']],
    ['--a \\\n--b', ['--a', '--b']],
    ['--label=x#y a~b', ['--label=x#y', 'a~b']],
  ] as const)('%s', ([text, words]) => {
    expect(splitShellWords(text)).toEqual(words)
  })

  test.for([
    [`--a 'b`, "the ' at character 5 is never closed"],
    ['--a "b', 'the " at character 5 is never closed'],
    ['--a b\\', 'a \\ at the end (character 6) escapes nothing'],
    ['--out $HOME', "'$' at character 7: a shell would expand it"],
    ['--a "$HOME"', `'$' at character 6: a shell would expand it even inside "..."`],
    ['--a x; rm', "';' at character 6: a shell would end the command there"],
    ['--a *.fa', "'*' at character 5: a shell would match file names with it"],
    ['--a ~/x', "'~' at character 5: a shell would put your home directory there"],
    ['--a #x', "'#' at character 5: a shell would start a comment there"],
  ] as const)('%s is refused: %s', ([text, message]) => {
    expect(() => splitShellWords(text)).toThrow(message)
  })

  test("what a shell would do beyond splitting is fine where it means nothing: in '...' or after a \\", () => {
    expect(splitShellWords(`'$HOME;*' \\$x`)).toEqual(['$HOME;*', '$x'])
  })
})
