/**
 * What a bench run does with this machine's baseline (VIRNUCPRO_BENCH_SAVE_BASELINE; not VIRNUCPRO_BENCH_BASELINE,
 * which names a stored run directory the GPU suites compare with):
 * - unset or 0 (`auto`): judge against the baseline; without one, pass and save this run as its first run; while it
 *   has fewer than BASELINE_RUNS runs, a passing run joins it.
 * - 1 (`save`, `npm run bench -- --save-baseline`): start a new baseline from this run, replacing the old one; judged
 *   on nothing, like a first run.
 * A planted slowdown never saves or joins a baseline.
 */
export const BASELINE_MODE_ENV = 'VIRNUCPRO_BENCH_SAVE_BASELINE'

export type BaselineMode = 'auto' | 'save'

/** @throws RangeError naming the variable and the value when it is neither unset, empty, 0 nor 1 */
export function baselineMode(env: NodeJS.ProcessEnv = process.env): BaselineMode {
  const text = env[BASELINE_MODE_ENV]?.trim()
  if (!text || text === '0') return 'auto'
  if (text === '1') return 'save'
  throw new RangeError(`${BASELINE_MODE_ENV} must be unset, 0 or 1 (start a new baseline), got '${text}'`)
}
