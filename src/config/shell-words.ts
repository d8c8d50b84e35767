/**
 * A command line's words, split as a POSIX shell splits them, and nothing more: blanks (space, tab, newline) separate
 * words; `'...'` keeps everything inside as it is; `"..."` keeps everything but `\"`, `\\` and `\` before a newline;
 * a `\` outside quotes keeps the next character as it is (and joins lines before a newline). What a shell would do
 * beyond splitting (expand `$VAR`, `` `cmd` ``, `~`, globs and braces; run `;`, `|`, `&`, `<`, `>`, `(`; start a
 * comment at `#`) is refused with where it is, never done or passed through silently: the value is not given to a
 * shell, so a person who wrote `$HOME` would get the five characters. Pure; errors are ShellWordsError.
 */

export class ShellWordsError extends Error {
  override name = 'ShellWordsError'
  /** 1-based character position of the problem in the text. */
  readonly position: number

  constructor(message: string, position: number) {
    super(message)
    this.position = position
  }
}

const BLANK = new Set([' ', '\t', '\n'])
/** Characters a shell gives meaning beyond splitting anywhere outside single quotes. */
const ACTS = new Map<string, string>([
  ['$', 'a shell would expand it'],
  ['`', 'a shell would run a command there'],
  [';', 'a shell would end the command there'],
  ['|', 'a shell would start a pipe there'],
  ['&', 'a shell would run the command in the background'],
  ['<', 'a shell would redirect input there'],
  ['>', 'a shell would redirect output there'],
  ['(', 'a shell would start a subshell there'],
  [')', 'a shell would end a subshell there'],
  ['*', 'a shell would match file names with it'],
  ['?', 'a shell would match file names with it'],
  ['[', 'a shell would match file names with it'],
  ['{', 'a shell would expand braces there'],
  ['}', 'a shell would expand braces there'],
])
/** Characters a shell gives meaning only at the start of a word. */
const ACTS_AT_START = new Map<string, string>([
  ['#', 'a shell would start a comment there'],
  ['~', 'a shell would put your home directory there'],
])
/** Inside double quotes only these keep their meaning. */
const ACTS_QUOTED = new Map<string, string>([
  ['$', 'a shell would expand it even inside "..."'],
  ['`', 'a shell would run a command there even inside "..."'],
])
const ESCAPED_IN_DOUBLE = new Set(['"', '\\', '$', '`', '\n'])

const refuse = (char: string, at: number, why: string) =>
  new ShellWordsError(`'${char}' at character ${at + 1}: ${why}, and this value is not given to a shell`, at + 1)

/** The text's words. @throws ShellWordsError naming the character and its position. */
export function splitShellWords(text: string): string[] {
  const words: string[] = []
  let word: string | null = null
  let i = 0
  while (i < text.length) {
    const c = text[i]!
    if (BLANK.has(c)) {
      if (word !== null) words.push(word)
      word = null
      i++
      continue
    }
    if (c === '\0') throw new ShellWordsError(`a NUL at character ${i + 1}: no argument can hold one`, i + 1)
    if (word === null && ACTS_AT_START.has(c)) throw refuse(c, i, ACTS_AT_START.get(c)!)
    if (ACTS.has(c)) throw refuse(c, i, ACTS.get(c)!)
    word ??= ''
    if (c === '\\') {
      if (i + 1 >= text.length) throw new ShellWordsError(`a \\ at the end (character ${i + 1}) escapes nothing`, i + 1)
      // `\` before a newline joins the lines, as a shell does.
      if (text[i + 1] !== '\n') word += text[i + 1]
      i += 2
    } else if (c === "'") {
      const end = text.indexOf("'", i + 1)
      if (end < 0) throw new ShellWordsError(`the ' at character ${i + 1} is never closed`, i + 1)
      const nul = text.indexOf('\0', i + 1)
      if (nul >= 0 && nul < end)
        throw new ShellWordsError(`a NUL at character ${nul + 1}: no argument can hold one`, nul + 1)
      word += text.slice(i + 1, end)
      i = end + 1
    } else if (c === '"') {
      const [inside, next] = doubleQuoted(text, i)
      word += inside
      i = next
    } else {
      word += c
      i++
    }
  }
  if (word !== null) words.push(word)
  return words
}

/** The text of the double-quoted part opening at `open`, and the index after its closing quote. */
function doubleQuoted(text: string, open: number): [string, number] {
  let out = ''
  let i = open + 1
  while (i < text.length) {
    const c = text[i]!
    if (c === '"') return [out, i + 1]
    if (c === '\0') throw new ShellWordsError(`a NUL at character ${i + 1}: no argument can hold one`, i + 1)
    if (ACTS_QUOTED.has(c)) throw refuse(c, i, ACTS_QUOTED.get(c)!)
    if (c === '\\' && i + 1 < text.length && ESCAPED_IN_DOUBLE.has(text[i + 1]!)) {
      if (text[i + 1] !== '\n') out += text[i + 1]
      i += 2
      continue
    }
    out += c
    i++
  }
  throw new ShellWordsError(`the " at character ${open + 1} is never closed`, open + 1)
}

/** `word` quoted so that splitShellWords reads it back whole (single quotes; a `'` as `'\''`). */
export function quoteShellWord(word: string): string {
  return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replaceAll("'", `'\\''`)}'`
}
