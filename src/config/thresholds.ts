/**
 * The thresholds in force: upstream's targets (thresholds-schema.ts) or a host's overrides laid over them from the JSON
 * file VIRNUCPRO_BENCH_THRESHOLDS names. The file is checked strictly (thresholds-check.ts): a key the suite would not
 * read is refused, never ignored.
 */

import { SettingError } from '../platform/setting-error.ts'
import { readJsonFile } from './json-file.ts'
import { meaningProblem, shapeProblem } from './thresholds-check.ts'
import { DEFAULT_THRESHOLDS, type Thresholds, ThresholdsSchema } from './thresholds-schema.ts'

export { DEFAULT_THRESHOLDS, IMBALANCE_MIN_UTIL_PCT, type Thresholds, ThresholdsSchema } from './thresholds-schema.ts'

/** A thresholds file (or overrides) that cannot be right: one line, `<source>: <problem>; <fix>`. */
export class ThresholdsConfigError extends SettingError {
  override name = 'ThresholdsConfigError'
}

type Overrides = { [K in keyof Thresholds]?: Partial<Thresholds[K]> }

/**
 * Defaults with `overrides` laid over them section by section; the result is validated as a whole.
 * @throws ThresholdsConfigError naming `source`, the key, the problem and the fix.
 */
export function mergeThresholds(overrides: Overrides, source = 'overrides'): Thresholds {
  const shape = shapeProblem(overrides)
  if (shape) throw new ThresholdsConfigError(source, shape.problem, shape.fix)
  const merged: Record<string, unknown> = { ...DEFAULT_THRESHOLDS }
  for (const [key, value] of Object.entries(overrides))
    merged[key] = { ...DEFAULT_THRESHOLDS[key as keyof Thresholds], ...(value as object) }
  const parsed = ThresholdsSchema.strict().safeParse(merged)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('')
    const value = issue.path.reduce<unknown>((at, p) => (at as Record<PropertyKey, unknown>)?.[p], merged)
    throw new ThresholdsConfigError(
      source,
      `${path.slice(1)}: ${issue.message} (got ${JSON.stringify(value)})`,
      'change that value',
    )
  }
  const meaning = meaningProblem(parsed.data)
  if (meaning) throw new ThresholdsConfigError(source, meaning.problem, meaning.fix)
  return parsed.data
}

/**
 * The thresholds in force: defaults, or defaults merged with the JSON file VIRNUCPRO_BENCH_THRESHOLDS names (UTF-8, a
 * byte-order mark allowed).
 * @throws ThresholdsConfigError naming the file, the key, the problem and the fix when the file is unreadable or wrong.
 */
export function loadThresholds(env: NodeJS.ProcessEnv = process.env): Thresholds {
  const file = env.VIRNUCPRO_BENCH_THRESHOLDS?.trim()
  if (!file) return DEFAULT_THRESHOLDS
  const source = `VIRNUCPRO_BENCH_THRESHOLDS=${file}`
  let overrides: unknown
  try {
    overrides = readJsonFile(file, source)
  } catch (error) {
    const e = error as SettingError
    throw new ThresholdsConfigError(e.input, e.problem, e.fix, { cause: e.cause })
  }
  return mergeThresholds(overrides as Overrides, source)
}

/**
 * What VIRNUCPRO_BENCH_THRESHOLDS does not change, said where it is set: a record keeps the thresholds it was judged
 * against, so `report` (which rebuilds reports from stored records) reads none from the environment. Null when unset.
 * One line, for doctor, and for `report` to print when it is set.
 */
export function thresholdsScopeNote(env: NodeJS.ProcessEnv = process.env): string | null {
  const file = env.VIRNUCPRO_BENCH_THRESHOLDS?.trim()
  if (!file) return null
  return `VIRNUCPRO_BENCH_THRESHOLDS=${file} applies to new runs of the gpu project; report judges each stored record by the thresholds stored in it (to judge by these, run the suites again)`
}
