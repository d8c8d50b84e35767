/**
 * The kinds of value a `VIRNUCPRO_BENCH_*` variable holds, each with one parser whose refusal names the variable, the
 * value, what is wrong and what to write instead. A parser sees the value trimmed and non-empty (an empty variable is
 * an unset one, as everywhere in this suite).
 */

import { SettingError, variableInput } from '../platform/setting-error.ts'
import { MIN_SIZE_RATIO, tooCloseSizes } from './capacity-sample.ts'
import { closestMatch } from './closest.ts'

/** One variable: what it sets (for doctor and the README) and how its value is read. */
export interface Setting<T> {
  what: string
  /** @throws SettingError naming the variable, its value, the problem and the fix. */
  parse(raw: string, name: string): T
}

const refuse = (name: string, raw: string, problem: string, fix: string) =>
  new SettingError(variableInput(name, raw), problem, fix)

/** Why a value is not plain decimal digits, in the words of the notation it is written in. */
function notationOf(raw: string): string {
  if (/^[+-]?0x/i.test(raw)) return 'hexadecimal is not read'
  if (/^[+-]?0[ob]/i.test(raw)) return 'octal and binary are not read'
  if (/^[+-]?[\d.]+e[+-]?\d+$/i.test(raw)) return 'exponent notation is not read'
  if (/^[+-]/.test(raw)) return 'a sign is not read'
  if (/^\d[\d_,' ]*$/.test(raw)) return 'digit separators are not read'
  if (/^\d*\.\d+$|^\d+\.\d*$/.test(raw)) return 'it must be whole'
  return 'it is not a number'
}

/**
 * A whole number in plain decimal digits within [min, max]: `0x10`, `1e3`, `1_000`, `+5` and `3.0` are refused (the
 * suite once read them through Number(), so `0x10` meant 16 runs). `example` is offered when the value says nothing.
 */
export function decimalInteger(
  what: string,
  min: number,
  max = Number.MAX_SAFE_INTEGER,
  example = min,
): Setting<number> {
  const range = max === Number.MAX_SAFE_INTEGER ? `${min} or more` : `from ${min} to ${max}`
  return {
    what,
    parse(raw, name) {
      const value = Number(raw)
      if (!/^\d+$/.test(raw)) {
        const read = Number(raw.replace(/[_,' ]/g, ''))
        // What JavaScript would have read (0x10 -> 16) is likely what was meant: offer it when it is in range.
        const meant = Number.isSafeInteger(read) && read >= min && read <= max
        const fix = meant ? `write it as ${name}=${read}` : `write it in decimal digits, e.g. ${name}=${example}`
        throw refuse(name, raw, `not a whole number in decimal digits (${notationOf(raw)})`, fix)
      }
      if (!Number.isSafeInteger(value) || value < min || value > max)
        throw refuse(name, raw, `out of range (${range})`, `set it to a number ${range}, or unset it for the default`)
      return value
    },
  }
}

/** One of `choices` (compared case-insensitively when `caseInsensitive`); returns the choice as listed. */
export function choice<T extends string>(what: string, choices: readonly T[], caseInsensitive = false): Setting<T> {
  const fold = (s: string) => (caseInsensitive ? s.toLowerCase() : s)
  return {
    what,
    parse(raw, name) {
      const found = choices.find((c) => fold(c) === fold(raw))
      if (found !== undefined) return found
      const near = closestMatch(fold(raw), choices.map(fold))
      const guess = near === undefined ? '' : ` (did you mean ${choices.find((c) => fold(c) === near)}?)`
      throw refuse(name, raw, `not one of ${choices.join(', ')}${guess}`, 'set it to one of them, or unset it')
    },
  }
}

const YES = ['1', 'true', 'yes', 'on']
const NO = ['0', 'false', 'no', 'off']

/** A yes/no switch: 1, true, yes, on or 0, false, no, off, in any case (what git's config accepts). */
export function yesNo(what: string): Setting<boolean> {
  return {
    what,
    parse(raw, name) {
      const word = raw.toLowerCase()
      if (YES.includes(word)) return true
      if (NO.includes(word)) return false
      throw refuse(name, raw, 'not a yes/no value', `set it to ${NO.join(', ')} or ${YES.join(', ')}`)
    },
  }
}

/**
 * A switch its reader turns on only for `1` (a shell script, or a check of `=== '1'` elsewhere): `true` would be read
 * as off there, so it is refused here rather than shown as accepted.
 */
export function onlyOne(what: string): Setting<boolean> {
  return {
    what,
    parse(raw, name) {
      if (raw === '1' || raw === '0') return raw === '1'
      throw refuse(name, raw, 'only 1 turns this on (anything else is read as off)', `set ${name}=1, or unset it`)
    },
  }
}

const NAME_FORM = 'a directory name (letters, digits, . _ -, starting with a letter or digit)'

/** Why `raw` is no single directory name of the form NAME_FORM, or null when it is one. */
function notOneName(raw: string, maxChars: number): string | null {
  if (raw === '..') return '.. is the folder above'
  if (raw === '.') return '. is the folder itself'
  if (/[/\\]/.test(raw)) return `a ${raw.includes('/') ? '/' : '\\'} makes it a path`
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters (NUL first) are what is refused.
  if (/[\u0000-\u001f\u007f-\u009f]/.test(raw)) return 'it holds a control character'
  if (/^[.-]/.test(raw)) return 'it starts with . or -'
  const odd = /[^A-Za-z0-9._-]/u.exec(raw)
  if (odd) return `'${odd[0]}' is not a letter, digit, . _ or -`
  if (raw.length > maxChars) return `over ${maxChars} characters`
  return null
}

/**
 * One directory name, used as a single path component under a folder of the suite's (a run ID, a campaign task): never
 * `.`, `..`, a path, a control character (NUL), a name starting with `.` or `-`, or anything outside [A-Za-z0-9._-], so
 * that what is written under it stays in that folder and reads the same in a record id, a shell and a file name.
 */
export function directoryName(what: string, maxChars: number): Setting<string> {
  return {
    what,
    parse(raw, name) {
      const why = notOneName(raw, maxChars)
      if (why !== null) throw refuse(name, raw, `not a directory name (${why})`, `set it to ${NAME_FORM}, or unset it`)
      return raw
    },
  }
}

/** Any text (the reader uses it as it is). */
export function anyText(what: string): Setting<string> {
  return { what, parse: (raw) => raw }
}

/**
 * Distinct whole numbers of at least `least`, comma-separated, `minCount` of them at least; returned ascending. Said
 * in the refusal as `problem`, with `example` after the `=`.
 */
function wholeList(
  what: string,
  o: { least: number; minCount: number; problem: string; example: string },
): Setting<number[]> {
  return {
    what,
    parse(raw, name) {
      const parts = raw.split(',').map((part) => part.trim())
      const values = parts.map(Number)
      const bad = parts.some((p) => !/^\d+$/.test(p)) || values.some((n) => !Number.isSafeInteger(n) || n < o.least)
      if (bad || new Set(values).size !== values.length || values.length < o.minCount)
        throw refuse(name, raw, o.problem, `write them in decimal digits, e.g. ${name}=${o.example}`)
      return values.sort((a, b) => a - b)
    },
  }
}

/**
 * Record counts, comma-separated: distinct integers >= 2, at least two of them, each at least MIN_SIZE_RATIO times
 * the one below (closer sizes leave the per-sequence cost inside run-to-run noise); returned ascending.
 */
export function sizeList(what: string): Setting<number[]> {
  const list = wholeList(what, {
    least: 2,
    minCount: 2,
    problem: 'not two or more distinct record counts >= 2, comma-separated',
    example: '1000,10000',
  })
  return {
    what,
    parse(raw, name) {
      const values = list.parse(raw, name)
      const close = tooCloseSizes(values)
      if (close)
        throw refuse(
          name,
          raw,
          `${close[0]} and ${close[1]} are less than ${MIN_SIZE_RATIO}x apart: a fit cannot tell their per-sequence cost from run-to-run noise`,
          `give sizes at least ${MIN_SIZE_RATIO}x apart, e.g. ${name}=1000,2000,4000`,
        )
      return values
    },
  }
}

/** One or more distinct whole numbers >= 1, comma-separated (GPU counts), ascending after parsing. */
export const countList = (what: string): Setting<number[]> =>
  wholeList(what, {
    least: 1,
    minCount: 1,
    problem: 'not distinct whole numbers >= 1, comma-separated',
    example: '1,4',
  })

/**
 * GPU counts the capacity answer compares: distinct, each one of `known` (1, 2, 4, 8: the configurations it builds);
 * ascending. Any other count was dropped without a word (issue 47: CAPACITY_GPUS=3 answered for 2, 4 and 8, never 3).
 */
export function gpuCountList(what: string, known: readonly number[]): Setting<number[]> {
  const counts = countList(what)
  return {
    what,
    parse(raw, name) {
      const values = counts.parse(raw, name)
      const other = values.filter((n) => !known.includes(n))
      if (other.length > 0)
        throw refuse(
          name,
          raw,
          `${other.join(', ')} ${other.length === 1 ? 'is not a GPU count' : 'are not GPU counts'} the capacity answer compares (${known.join(', ')})`,
          `use some of ${known.join(', ')}, e.g. ${name}=1,2`,
        )
      return values
    },
  }
}

/** A value parsed by a function of its own module (a shard spec, a JSON grid) whose error message is kept whole. */
export function parsedBy<T>(what: string, parse: (raw: string) => T, fix: string): Setting<T> {
  return {
    what,
    parse(raw, name) {
      try {
        return parse(raw)
      } catch (error) {
        const problem = (error as Error).message.replace(new RegExp(`^${name}:?\\s*`), '')
        throw new SettingError(variableInput(name, raw), problem, fix, { cause: error })
      }
    },
  }
}
