// In `integration-timed` (test/support/integration-tests.ts): the worker of a timed file runs on one core, and so does
// every process it starts, as test/support/pin-core.ts promises the timed known answers beside it.
import { readFileSync } from 'node:fs'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { configuredTimedWorkers, timedWorkerCore } from './pin-core-plan.ts'

const allowed = (status: string) => /^Cpus_allowed_list:\s*(\S+)$/m.exec(status)?.[1]

describe.skipIf(configuredTimedWorkers() === 1)('a timed file on a core of its own', () => {
  test("this worker, all its threads, and a child it starts run on its core only; torch's pool is one thread", async () => {
    const core = String(timedWorkerCore(process.env.VITEST_POOL_ID, configuredTimedWorkers()))
    expect(allowed(readFileSync('/proc/self/status', 'utf8'))).toBe(core)
    const child = await execa('cat', ['/proc/self/status'])
    expect(allowed(child.stdout)).toBe(core)
    expect(process.env.OMP_NUM_THREADS).toBe('1')
  })
})
