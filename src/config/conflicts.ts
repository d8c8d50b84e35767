/**
 * Settings that are each right alone but ask for two things at once. Each pair is refused like a bad value, in one
 * line naming both and what to do, by doctor --settings and the gpu project's global setup before any work
 * (check.ts), and by the code that would have to pick one of the two (src/engine/continuation.ts).
 */
import { SettingError, shownValue } from '../platform/setting-error.ts'
import { rawSetting, VARIABLES } from './variables.ts'

/**
 * VIRNUCPRO_BENCH_FRESH=1 beside a pinned VIRNUCPRO_BENCH_RUN_ID. Refused, not resolved: FRESH promises a new run
 * that leaves the old one as it was, and a pinned ID names the one directory to write into, so a fresh run there
 * would have to overwrite that run or mix new runs into it; taking either setting over the other (the pin once won,
 * without a word) measures something the user did not ask for. Each fix is one setting away.
 */
function freshBesidePinned(env: NodeJS.ProcessEnv): SettingError | null {
  const pinned = rawSetting(env, 'VIRNUCPRO_BENCH_RUN_ID')
  if (pinned === undefined || rawSetting(env, 'VIRNUCPRO_BENCH_FRESH') !== '1') return null
  return new SettingError(
    `VIRNUCPRO_BENCH_FRESH=1 with VIRNUCPRO_BENCH_RUN_ID=${shownValue(pinned)}`,
    'a pinned run is written into as it is, never started afresh',
    `unset VIRNUCPRO_BENCH_FRESH to continue ${pinned}, or pin a new VIRNUCPRO_BENCH_RUN_ID (or remove the run directory ${pinned}) to start afresh`,
  )
}

/**
 * VIRNUCPRO_BENCH_CAPACITY_DIRECT naming a GPU count VIRNUCPRO_BENCH_CAPACITY_GPUS leaves out: its direct run has no
 * projection to check, and was dropped without a word (issue 47). 1 GPU is always measured (the baseline).
 */
function directNotMeasured(env: NodeJS.ProcessEnv): SettingError | null {
  const [direct, gpus] = ['VIRNUCPRO_BENCH_CAPACITY_DIRECT', 'VIRNUCPRO_BENCH_CAPACITY_GPUS'] as const
  const rawDirect = rawSetting(env, direct)
  const rawGpus = rawSetting(env, gpus)
  if (rawDirect === undefined || rawGpus === undefined) return null
  let unmeasured: number[]
  try {
    const measured = new Set([1, ...VARIABLES[gpus].parse(rawGpus, gpus)])
    unmeasured = VARIABLES[direct].parse(rawDirect, direct).filter((n) => !measured.has(n))
  } catch {
    return null // a bad value is its own parser's to refuse
  }
  if (unmeasured.length === 0) return null
  return new SettingError(
    `${direct}=${shownValue(rawDirect)} with ${gpus}=${shownValue(rawGpus)}`,
    `${unmeasured.join(', ')} GPU(s) not measured, so no projection there for a direct run to check`,
    `add ${unmeasured.join(',')} to ${gpus}, or leave ${unmeasured.length === 1 ? 'it' : 'them'} out of ${direct}`,
  )
}

export interface SettingConflict {
  /** The two variables, the one to change first. */
  names: readonly [string, string]
  /** Its refusal: one line, both named. */
  error: SettingError
}

/**
 * Every pair of settings in `env` that contradict each other. A value that is bad on its own is its own parser's to
 * refuse, in its own words: read or check each variable first.
 */
export function conflictingSettings(env: NodeJS.ProcessEnv): SettingConflict[] {
  const found: SettingConflict[] = []
  const fresh = freshBesidePinned(env)
  if (fresh) found.push({ names: ['VIRNUCPRO_BENCH_FRESH', 'VIRNUCPRO_BENCH_RUN_ID'], error: fresh })
  const direct = directNotMeasured(env)
  if (direct) found.push({ names: ['VIRNUCPRO_BENCH_CAPACITY_DIRECT', 'VIRNUCPRO_BENCH_CAPACITY_GPUS'], error: direct })
  return found
}
