/**
 * Shared by the validation files: measure options for one warm-up-free run (the fault scenarios), a measured
 * configuration straight from the shared-run cache (so a check reads the very runs a suite judged), arms measured
 * interleaved, fixtures with MEDIUM generator parameters at a given record count, and a work-stratified subset of one.
 */

import { existsSync } from 'node:fs'
import { basename, dirname, join } from 'node:path'
import type { Configuration } from '../../src/engine/configuration.ts'
import { journalFor } from '../../src/engine/journal-options.ts'
import {
  type Arm,
  type MeasuredConfiguration,
  measureConfiguration,
  measureInterleaved,
} from '../../src/engine/measure-configuration.ts'
import type { MonitorSettings } from '../../src/engine/observe-run.ts'
import { MANIFEST_FILE, type SampleManifest } from '../../src/input/manifest.ts'
import { readManifest } from '../../src/input/manifest-read.ts'
import { sampleFasta } from '../../src/input/sample.ts'
import type { SuiteMeasure } from '../../src/suites/index.ts'
import { ONCE } from '../../src/validation/scenarios.ts'
import { DATASET_CACHE_DIR } from '../support/dataset.ts'
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
    journal: journalFor(rc.ctx, null),
  })
}

/** `arms` measured in turn (A B A B ...) under `m`'s policy, each on its own input; shared through the run cache. */
export function measuredInterleaved(
  rc: RunContext,
  arms: readonly Arm[],
  m: Omit<SuiteMeasure, 'input'>,
): Promise<MeasuredConfiguration[]> {
  return measureInterleaved(arms, {
    ...m,
    profile: rc.ctx.profile,
    workDir: rc.ctx.workDir,
    journal: journalFor(rc.ctx, null),
  })
}

/**
 * A `records`-record subset of the fixture file `input`, stratified by GPU work with one record per stratum (a
 * systematic sample of the records sorted by work), cached beside the fixtures: the subset a projection is checked
 * from. Its manifest says how far its work per record is from the source's.
 */
export async function workSubset(input: string, records: number): Promise<{ file: string; manifest: SampleManifest }> {
  const dir = join(DATASET_CACHE_DIR, `work-subset-${records}-of-${basename(dirname(input))}`)
  const manifest = existsSync(join(dir, MANIFEST_FILE))
    ? ((await readManifest(dir)) as SampleManifest)
    : await sampleFasta({ from: input, records, seed: 1, stratifyBy: 'work', strata: records }, dir)
  return { file: join(dir, 'part-001.fa'), manifest }
}

/** The first FASTA file of the cached MEDIUM-parameter fixture with `records` records (seed 1). */
export function mediumInput(records: number): Promise<string> {
  return fixtureInput('MEDIUM', records)
}
