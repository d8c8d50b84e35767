import { readSetting } from '../../src/config/variables.ts'
import { DEFAULT_JOB_LIMIT_S } from '../../src/engine/settings.ts'

/**
 * The gpu project's test and hook timeout (vitest.config.ts): the job limit, VIRNUCPRO_BENCH_JOB_LIMIT_S, or none
 * where it is 0 (Vitest reads 0 as no timeout).
 *
 * A gpu test lasts as long as its target runs, and VirNucPro's take a minute and more each: a fixed 10 minutes cut the
 * real VirNucPro's capacity test on an H200 (2026-12-07, job limit 876 s) between its last planned run and its
 * held-out check, and would cut the memory file's 13 VirNucPro runs wherever a longer limit is set. What bounds a test
 * is the job's own limit, which the capacity design already keeps to; a hung target still ends in one line at its own
 * run limit (VIRNUCPRO_BENCH_RUN_TIMEOUT_MS), which this leaves as it is.
 *
 * A bad value is not refused here: the set-up's settings check refuses it in one line naming the variable, and the
 * config must load to say so.
 */
export function gpuTestTimeoutMs(env: NodeJS.ProcessEnv = process.env): number {
  let limitS: number
  try {
    limitS = readSetting(env, 'VIRNUCPRO_BENCH_JOB_LIMIT_S') ?? DEFAULT_JOB_LIMIT_S
  } catch {
    limitS = DEFAULT_JOB_LIMIT_S
  }
  return limitS * 1000
}
