// How many timed files run side by side, and on which core each (test/support/pin-core.ts pins them). Read by
// vitest.config.ts, so a machine where pinning cannot work runs the timed files one at a time, as before.
import { spawnSync } from 'node:child_process'
import { availableParallelism } from 'node:os'

/** Side by side only on 2 or more cores with `taskset` (util-linux) to pin each worker; else one at a time. */
export function timedWorkers(cores = availableParallelism(), hasTaskset = taskset()): 1 | 2 {
  return cores >= 2 && hasTaskset ? 2 : 1
}

function taskset(): boolean {
  return spawnSync('taskset', ['--version'], { stdio: 'ignore' }).status === 0
}

/**
 * The timed workers' count as vitest.config.ts decided it (VIRNUCPRO_BENCH_TIMED_WORKERS in the project's env): a
 * worker cannot decide it again once pinned, when availableParallelism() reads its one core.
 */
export function configuredTimedWorkers(env: NodeJS.ProcessEnv = process.env): number {
  const n = Number(env.VIRNUCPRO_BENCH_TIMED_WORKERS ?? '1')
  return Number.isInteger(n) && n >= 1 ? n : 1
}

/** The core worker `poolId` (VITEST_POOL_ID, 1-based) runs on; null where the timed files run one at a time. */
export function timedWorkerCore(poolId: string | undefined, workers: number): number | null {
  if (workers === 1) return null
  const n = Number(poolId)
  if (!Number.isInteger(n) || n < 1) throw new Error(`VITEST_POOL_ID '${poolId}' is not a worker number (1, 2, ...)`)
  return (n - 1) % workers
}
