/**
 * A setting that cannot be right: a `VIRNUCPRO_BENCH_*` variable, the thresholds file or the input. Its message is one
 * line in one shape everywhere (doctor, the gpu project's global setup, the suites): `<input>: <problem>; <fix>`, so a
 * person reads what was given, what is wrong with it and what to do instead.
 */
import { escapeControls } from './one-line.ts'

export class SettingError extends Error {
  override name = 'SettingError'
  /** What was given: `NAME='value'`, or a file. */
  readonly input: string
  readonly problem: string
  readonly fix: string

  constructor(input: string, problem: string, fix: string, options?: ErrorOptions) {
    super(formatRefusal(input, problem, fix), options)
    this.input = input
    this.problem = problem
    this.fix = fix
  }
}

/** `<input>: <problem>; <fix>`, on one line whatever the parts hold (a value with a newline is shown escaped). */
export function formatRefusal(input: string, problem: string, fix: string): string {
  return escapeControls(`${input}: ${problem}; ${fix}`)
}

/** A value as shown in a message: quoted, control characters escaped, long values cut. */
export function shownValue(raw: string, maxChars = 80): string {
  const cut = raw.length > maxChars ? `${raw.slice(0, maxChars)}...` : raw
  return `'${escapeControls(cut)}'`
}

/** `NAME='value'`: how a variable is named in a refusal. */
export function variableInput(name: string, raw: string): string {
  return `${name}=${shownValue(raw)}`
}
