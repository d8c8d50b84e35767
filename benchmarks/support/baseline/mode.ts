/**
 * What a bench run does with this machine's baseline (VIRNUCPRO_BENCH_BASELINE):
 * - unset (`auto`): judge against the baseline; without one, pass and save this run as its first run; while it has
 *   fewer than BASELINE_RUNS runs, a passing run joins it.
 * - `save` (`npm run bench -- --save-baseline`): start a new baseline from this run, replacing the old one; judged on
 *   nothing, like a first run.
 * A planted slowdown never saves or joins a baseline.
 */
export const BASELINE_MODE_ENV = 'VIRNUCPRO_BENCH_BASELINE'

export type BaselineMode = 'auto' | 'save'

/** @throws RangeError naming the variable and the value when it is neither unset, empty nor `save` */
export function baselineMode(env: NodeJS.ProcessEnv = process.env): BaselineMode {
  const text = env[BASELINE_MODE_ENV]?.trim()
  if (!text) return 'auto'
  if (text === 'save') return 'save'
  throw new RangeError(`${BASELINE_MODE_ENV} must be unset or 'save' (start a new baseline), got '${text}'`)
}
