/**
 * The default an option's help text states, in the forms argparse and click helps write it: `(default: 4)`,
 * `[default: 4]` (click's show_default), `(default 500)`, `default: full on a GPU, tiny on the CPU`, `defaults to
 * 8`, `default 2048`, and a bare number in parentheses, `DataLoader workers (4)`. Kept as written (a default is
 * often prose: `from config`, `2048, with BF16: 3072`); null when the help states none.
 */

/** `(default: X)`, `[default X]`, `(defaults to X)`, `(default=X)`: the bracket's content after the keyword. */
const BRACKETED = /[([]\s*defaults?\b\s*(?:[:=]|\bis\b|\bto\b)?([^)\]]*)[)\]]/i
/** `default: X`, `default is X`, `defaults to X`: the rest of the sentence. */
const STATED = /\bdefaults?\b\s*(?::|=|\bis\b|\bto\b)/i
/** `default 2048`, `default "auto"`: a value-like word straight after the keyword. */
const BARE = /\bdefault\s+(-?\d[\w.]*|'[^']*'|"[^"]*"|true\b|false\b|none\b)/i
/** `(4)`, `(0.5)`, `(1e-3)`: a lone number in parentheses. */
const LONE_NUMBER = /\(\s*(-?\d+(?:\.\d+)?(?:e-?\d+)?)\s*\)/i

/** A sentence ends at `.` or `;` followed by a space or the end (`0.5` and `e.g.x` go on). */
function sentenceOf(text: string): string {
  const end = /[.;](?:\s|$)/.exec(text)
  return (end ? text.slice(0, end.index) : text).trim()
}

/** The default `help` states, or null. Never throws. */
export function defaultOfHelp(help: string): string | null {
  if (typeof help !== 'string' || !/default|\(/i.test(help)) return null
  const bracketed = BRACKETED.exec(help)?.[1]?.trim()
  if (bracketed) return bracketed
  const stated = STATED.exec(help)
  if (stated) {
    const value = sentenceOf(help.slice(stated.index + stated[0].length))
    if (value) return value
  }
  const bare = BARE.exec(help)?.[1]
  if (bare) return bare
  return LONE_NUMBER.exec(help)?.[1] ?? null
}
