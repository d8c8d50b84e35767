/**
 * Settings checked once, in one place that doctor, the gpu project's global setup and the suites share: every
 * `VIRNUCPRO_BENCH_*` variable (a name the suite does not read is named with the closest one it does), the thresholds
 * file (strict at every level) and the input (read and validated as the suites will read it). Each problem is one line
 * naming the input, the problem and the fix; nothing is thrown for a bad setting, so all of them are reported at once.
 */

import { readInput } from '../input/input-check.ts'
import { DEFAULT_WORK_CHUNK_LENGTH } from '../input/sample.ts'
import { formatRefusal } from '../platform/setting-error.ts'
import { closestMatch } from './closest.ts'
import { conflictingSettings } from './conflicts.ts'
import type { Setting } from './env-parsers.ts'
import { loadThresholds } from './thresholds.ts'
import { KNOWN_VARIABLES, rawSetting, VARIABLES } from './variables.ts'

const PREFIX = 'VIRNUCPRO_BENCH_'

export interface SettingProblem {
  /** The variable the problem is about. */
  variable: string
  /** One line: `<input>: <problem>; <fix>`. */
  message: string
}

export interface CheckOptions {
  /** Parsers of the variables read above src/config (PARSED_ELSEWHERE), from the modules that own them. */
  parsedElsewhere?: Readonly<Record<string, Setting<unknown>>>
  /**
   * Reads the input (VIRNUCPRO_BENCH_INPUT) the way the suites will, e.g. into their identity cache; false: the input
   * is not read (only its path is checked). Default: a validating read (input-check.ts).
   */
  readInput?: ((path: string) => Promise<unknown>) | false
}

/** Names starting with VIRNUCPRO_BENCH_ that the suite does not read: a typo, or a setting that no longer exists. */
export function unknownVariables(env: NodeJS.ProcessEnv): SettingProblem[] {
  return Object.keys(env)
    .filter((name) => name.startsWith(PREFIX) && !KNOWN_VARIABLES.includes(name))
    .sort()
    .map((name) => {
      const near = closestMatch(
        name.slice(PREFIX.length),
        KNOWN_VARIABLES.map((k) => k.slice(PREFIX.length)),
      )
      const problem = `not a setting virnucpro-bench reads${near === undefined ? '' : ` (did you mean ${PREFIX}${near}?)`}`
      const fix =
        near === undefined ? 'unset it (docs/settings.md lists the settings)' : `rename it to ${PREFIX}${near}`
      return { variable: name, message: formatRefusal(name, problem, fix) }
    })
}

/** Each known variable's value through its parser; one problem per bad value. */
export function variableProblems(env: NodeJS.ProcessEnv, parsedElsewhere: CheckOptions['parsedElsewhere'] = {}) {
  const settings: [string, Setting<unknown>][] = [...Object.entries(VARIABLES), ...Object.entries(parsedElsewhere)]
  const problems: SettingProblem[] = []
  for (const [name, setting] of settings) {
    const raw = rawSetting(env, name)
    if (raw === undefined) continue
    try {
      setting.parse(raw, name)
    } catch (error) {
      problems.push({ variable: name, message: oneLineMessage(error) })
    }
  }
  return problems
}

/**
 * Every problem of the settings in `env`: unknown names, bad values, settings that contradict each other
 * (conflicts.ts), the thresholds file, the input.
 */
export async function checkSettings(env: NodeJS.ProcessEnv, options: CheckOptions = {}): Promise<SettingProblem[]> {
  const problems = [...unknownVariables(env), ...variableProblems(env, options.parsedElsewhere)]
  const bad = (name: string) => problems.some((p) => p.variable === name)
  for (const { names, error } of conflictingSettings(env))
    if (!names.some(bad)) problems.push({ variable: names[0], message: error.message })
  const thresholds = 'VIRNUCPRO_BENCH_THRESHOLDS'
  if (rawSetting(env, thresholds) !== undefined && !bad(thresholds)) {
    try {
      loadThresholds(env)
    } catch (error) {
      problems.push({ variable: thresholds, message: oneLineMessage(error) })
    }
  }
  const input = rawSetting(env, 'VIRNUCPRO_BENCH_INPUT')
  if (input !== undefined && !bad('VIRNUCPRO_BENCH_INPUT') && options.readInput !== false) {
    const read = options.readInput ?? ((path: string) => readInput(path, DEFAULT_WORK_CHUNK_LENGTH))
    try {
      const records = ((await read(input)) as { records?: unknown } | undefined)?.records
      if (typeof records === 'number' && records < MIN_SAMPLE_RECORDS)
        problems.push({ variable: 'VIRNUCPRO_BENCH_INPUT', message: sampleTooSmall(input, records) })
      const sizes = 'VIRNUCPRO_BENCH_SIZES'
      if (typeof records === 'number' && rawSetting(env, sizes) !== undefined && !bad(sizes)) {
        const problem = sizesBeyondSample(rawSetting(env, sizes)!, records, input)
        if (problem) problems.push({ variable: sizes, message: problem })
      }
    } catch (error) {
      problems.push({ variable: 'VIRNUCPRO_BENCH_INPUT', message: inputRefusal(error) })
    }
  }
  return problems
}

/**
 * The fewest records a sample can be measured at sizes with: three nested sizes below a larger one held out (1, 2, 4
 * and 8 records at the least). Issue 47: a 1-record sample passed doctor and stopped the suite on a stack trace.
 */
export const MIN_SAMPLE_RECORDS = 8

function sampleTooSmall(input: string, records: number): string {
  return `VIRNUCPRO_BENCH_INPUT ${input}: ${records.toLocaleString('en-US')} record${records === 1 ? '' : 's'}, fewer than the ${MIN_SAMPLE_RECORDS} a measurement at sizes needs (three nested sizes below a larger one held out); give a sample of ${MIN_SAMPLE_RECORDS} records or more`
}

/**
 * VIRNUCPRO_BENCH_SIZES against the user's sample: every size a nested subset, so below the sample's record count
 * (the whole sample is the held-out direct run). A size at or above it was measured as the whole sample, silently
 * (issue 47: SIZES=20,40 on 30 records measured 20 and 30; 40,80 stopped on a stack trace).
 */
function sizesBeyondSample(raw: string, records: number, input: string): string | null {
  const sizes = VARIABLES.VIRNUCPRO_BENCH_SIZES.parse(raw, 'VIRNUCPRO_BENCH_SIZES') as readonly number[]
  const beyond = sizes.filter((n) => n > records)
  if (beyond.length === 0) return null
  const fits = sizes.filter((n) => n <= records)
  return `VIRNUCPRO_BENCH_SIZES ${raw}: ${beyond.join(', ')} above the ${records.toLocaleString('en-US')} records of ${input}, so measured as the whole sample; give sizes up to ${records.toLocaleString('en-US')}${fits.length > 0 ? ` (e.g. ${[...fits, records].filter((n, i, a) => a.indexOf(n) === i).join(',')})` : ''}, or a larger sample`
}

/**
 * An input's refusal as a setting's: the variable first, then the reader's line (file, line, problem) and, when the
 * reader's line carries no fix of its own, the fix.
 */
export function inputRefusal(error: unknown): string {
  const message = oneLineMessage(error)
  const fix = message.includes('; ') ? '' : '; correct the file there, or point VIRNUCPRO_BENCH_INPUT at another input'
  return `VIRNUCPRO_BENCH_INPUT: ${message}${fix}`
}

/** An error's message on one line; anything but an Error is a bug of ours and says so. */
function oneLineMessage(error: unknown): string {
  if (!(error instanceof Error)) return `internal error: ${String(error)}`
  return error.message.split('\n')[0]!
}
