/**
 * The three kinds of entry a sweep grid holds, told apart by the JSON alone so that a hand-written grid reads plainly:
 * - an option with a value, `"--esm-batch-size": [8192, 16384, null]`: each number or text is `--esm-batch-size V`,
 *   `null` the option not added (the value the default's command line gives it, else the target's own default);
 * - a flag, `"--parallel": [true, false]`: true gives `--parallel`, false leaves it out;
 * - a switch pair, `"--persistent-models/--no-persistent-models": [true, false]`: true gives `--persistent-models`,
 *   false `--no-persistent-models` (click's `--x/--no-x` options, which have a default of their own).
 * Each choice has its arguments, appended to the default's, and its part of a setting's label: `esm-batch-size=8192`,
 * `--parallel`, `no --parallel`, `--no-persistent-models`; an option not added adds nothing to the label.
 */

/** A value as the grid's JSON gives it. */
export type GridValue = number | string | boolean | null

export type GridEntry =
  | { kind: 'value'; key: string; option: string }
  | { kind: 'flag'; key: string; option: string }
  | { kind: 'pair'; key: string; on: string; off: string }

/** One entry's value at one grid point. */
export interface GridChoice {
  entry: GridEntry
  value: GridValue
}

const OPTION = /^--?[A-Za-z][\w-]*$/
const PAIR = /^(--([A-Za-z][\w-]*))\/(--no-([A-Za-z][\w-]*))$/

/** How each kind's list is written, for the refusals. */
export const VALUE_FORM = 'an option with a value takes numbers or text, and null for the option not added'
export const FLAG_FORM = 'a flag takes true (given) and false (not given)'
const pairForm = (on: string, off: string) => `a switch pair takes true (${on}) and false (${off})`

const shown = (v: unknown) => JSON.stringify(v) ?? String(v)

/** The entry `key` names with `values`, or what is wrong with it in words (the key is named by the caller). */
export function entryOf(key: string, values: readonly unknown[]): GridEntry | { problem: string } {
  if (key.includes('/')) {
    const m = PAIR.exec(key)
    if (!m || m[2] !== m[4])
      return {
        problem: `'${key}' is not a switch pair: write it as --x/--no-x, e.g. "--persistent-models/--no-persistent-models": [true, false]`,
      }
    const bad = values.find((v) => typeof v !== 'boolean')
    if (bad !== undefined) return { problem: `${key} has ${shown(bad)}: ${pairForm(m[1]!, m[3]!)}` }
    return { kind: 'pair', key, on: m[1]!, off: m[3]! }
  }
  if (!OPTION.test(key))
    return { problem: `'${key}' is not a CLI option (e.g. --esm-batch-size, or --x/--no-x for a switch pair)` }
  if (values.some((v) => typeof v === 'boolean')) {
    const bad = values.find((v) => typeof v !== 'boolean')
    if (bad !== undefined) return { problem: `${key} mixes true/false with ${shown(bad)}: ${FLAG_FORM}; ${VALUE_FORM}` }
    return { kind: 'flag', key, option: key }
  }
  const bad = values.find(
    (v) => !(v === null || (typeof v === 'number' && Number.isFinite(v)) || (typeof v === 'string' && v.length > 0)),
  )
  if (bad !== undefined) return { problem: `${key} has a bad value ${shown(bad)}: ${VALUE_FORM}` }
  if (values.every((v) => v === null))
    return { problem: `${key} lists only null (the option not added): give a value to try beside it` }
  return { kind: 'value', key, option: key }
}

/** The options an entry can put on the command line: two entries sharing one would set it twice. */
export const spellingsOf = (e: GridEntry): string[] => (e.kind === 'pair' ? [e.on, e.off] : [e.option])

/** The command-line arguments of one choice. */
export function argsOfChoice({ entry, value }: GridChoice): string[] {
  if (entry.kind === 'pair') return [value ? entry.on : entry.off]
  if (entry.kind === 'flag') return value ? [entry.option] : []
  return value === null ? [] : [entry.option, String(value)]
}

/** An option as a setting's label names a value of it: `--esm-batch-size` -> `esm-batch-size`. */
export const optionName = (option: string) => option.replace(/^-+/, '')

/** One choice's part of a setting's label; null when it adds nothing (an option not added). */
export function labelOfChoice({ entry, value }: GridChoice): string | null {
  if (entry.kind === 'pair') return value ? entry.on : entry.off
  if (entry.kind === 'flag') return value ? entry.option : `no ${entry.option}`
  return value === null ? null : `${optionName(entry.option)}=${value}`
}

/** One value of an entry in words, for the study's notes: `8192`, `not added`, `--parallel`, `no --parallel`. */
export function valueWords(entry: GridEntry, value: GridValue): string {
  if (entry.kind === 'value' && value === null) return 'not added'
  if (entry.kind === 'value') return String(value)
  return labelOfChoice({ entry, value })!
}
