/**
 * Shared by the validation files: measure options for one warm-up-free run (the fault scenarios), a measured
 * configuration straight from the shared-run cache (so a check reads the very runs a suite judged), and fixtures with
 * MEDIUM generator parameters at a given record count.
 */

import type { Configuration } from '../../src/suites/configuration.ts'
import { type MeasuredConfiguration, measureConfiguration } from '../../src/suites/measure-configuration.ts'
import type { MonitorSettings } from '../../src/suites/observe-run.ts'
import type { SuiteMeasure } from '../../src/suites/suites.ts'
import { ONCE } from '../../src/validation/scenarios.ts'
import { fixtureInput, type RunContext } from '../support/run-context.ts'

/** One measured run, no warm-up, on `input`; `intervalMs` overrides the monitor's poll interval. */
export function once(rc: RunContext, input: string, intervalMs?: number, timeoutMs?: number): SuiteMeasure {
  const base = rc.measure(input)
  const monitor: MonitorSettings | null = base.monitor && { ...base.monitor, ...(intervalMs && { intervalMs }) }
  return { ...base, monitor, policy: ONCE, ...(timeoutMs && { timeoutMs }) }
}

/** The measurement of `config` under `m` (a cache hit when a suite already measured it in this invocation). */
export function measured(rc: RunContext, config: Configuration, m: SuiteMeasure): Promise<MeasuredConfiguration> {
  return measureConfiguration(config, {
    ...m,
    profile: rc.ctx.profile,
    workDir: rc.ctx.workDir,
    cacheDir: rc.ctx.cacheDir,
  })
}

/** The first FASTA file of the cached MEDIUM-parameter fixture with `records` records (seed 1). */
export function mediumInput(records: number): Promise<string> {
  return fixtureInput('MEDIUM', records)
}
