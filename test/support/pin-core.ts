// A setup file of `integration-timed` (vitest.config.ts): the worker running a timed file, and every process it starts
// from here on (the pipeline, its torch threads), run on one core of their own, so two timed files can run side by
// side without either's processes entering the other's wall times. Before (issue 45) the files ran one at a time and
// left the second core of a 2-core CI machine idle for 6.5 minutes; beside an unpinned neighbour a night's runs read
// up to 2x slow. Vitest numbers its workers 1..maxWorkers (VITEST_POOL_ID): worker n takes core n - 1.
import { execFileSync } from 'node:child_process'
import { configuredTimedWorkers, timedWorkerCore } from './pin-core-plan.ts'

const core = timedWorkerCore(process.env.VITEST_POOL_ID, configuredTimedWorkers())
if (core !== null) {
  // -a: every thread this worker already has (libuv's pool, V8's), not only its main thread; children inherit it.
  execFileSync('taskset', ['-a', '-p', '-c', String(core), String(process.pid)], { stdio: 'ignore' })
  // One core, one thread: torch sizes its pool from the machine's cores, not from this process's affinity.
  process.env.OMP_NUM_THREADS = '1'
}
