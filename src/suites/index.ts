/**
 * One function per suite: measure (through the shared-run cache), analyze, write the record at once. The GPU test
 * files call these with a fixture and configurations and then assert the verdicts; the unit tests call them on the
 * CPU with the fake NVML.
 */

import type { Configuration } from '../engine/configuration.ts'
import type { SuiteContext } from '../engine/context.ts'
import { journalFor } from '../engine/journal-options.ts'
import {
  type MeasuredConfiguration,
  type MeasureOptions,
  measureArms,
  measureConfiguration,
  SUITE_POLICY,
} from '../engine/measure-configuration.ts'
import type { OptimizationMatrix } from '../engine/optimization-matrix/index.ts'
import { failureReason, type SuiteMeasure, type SuiteOutcome, writeSuiteRecord } from '../engine/record.ts'
import type { ResultKind } from '../results/schema/index.ts'
import { analyzeAb } from './ab/ab.ts'
import { analyzeE2e } from './e2e/e2e-verdicts.ts'
import { checkMatrix } from './e2e/matrix-checks.ts'
import { analyzeEquivalence } from './equivalence/equivalence.ts'
import { analyzeMemory } from './memory/memory-verdicts.ts'
import { analyzeScaling } from './scaling/scaling.ts'
import { analyzeStageThroughput } from './stage/stage.ts'
import { analyzeSweep } from './sweep/sweep.ts'

export type { SuiteMeasure, SuiteOutcome }

/** The record a measurement's runs are for: what a reader shows them as, partial, after a kill. */
type Purpose = { kind: ResultKind; id: string; name: string }

const options = (ctx: SuiteContext, m: SuiteMeasure, purpose: Purpose): MeasureOptions => ({
  ...m,
  profile: ctx.profile,
  workDir: ctx.workDir,
  journal: journalFor(ctx, purpose),
})

/** The suite's policy with a fixed number of warm-ups and measured runs. */
const runs = (m: SuiteMeasure, warmupRuns: number, n: number) => ({
  ...(m.policy ?? SUITE_POLICY),
  warmupRuns,
  minRuns: n,
  maxRuns: n,
})

/** Marks the record failed when a measurement that should have completed did not. */
const stateOf = (measurements: readonly MeasuredConfiguration[]) => {
  const reason = failureReason(measurements)
  return reason ? { state: 'failed' as const, reason } : {}
}

export async function runScalingSuite(
  ctx: SuiteContext,
  m: SuiteMeasure,
  single: Configuration,
  multi: Configuration,
  gpuCount: number,
): Promise<SuiteOutcome> {
  const purpose = scalingPurpose(single, multi)
  const a = await measureConfiguration(single, options(ctx, m, purpose))
  const b = await measureConfiguration(multi, options(ctx, m, purpose))
  return writeScalingRecord(ctx, a, b, gpuCount)
}

const scalingPurpose = (a: Configuration, b: Configuration): Purpose => ({
  kind: 'scaling',
  // The setups in the id: two scaling measurements of one run (a clean pair and a fault scenario) must not share a file.
  id: `scaling-${b.label}-vs-${a.label}`,
  name: `scaling, ${b.label} vs ${a.label}`,
})

/** Analyses measured single- and multi-GPU runs (e.g. the capacity suite's largest size) and writes the scaling record. */
export function writeScalingRecord(
  ctx: SuiteContext,
  a: MeasuredConfiguration,
  b: MeasuredConfiguration,
  gpuCount: number,
): Promise<SuiteOutcome> {
  const { stats, verdicts } = analyzeScaling(a, b, gpuCount, ctx.thresholds)
  return writeSuiteRecord(ctx, {
    ...scalingPurpose(a.config, b.config),
    measurements: [a, b],
    stats: { ...stats },
    verdicts,
    ...stateOf([a, b]),
  })
}

export async function runStageSuite(ctx: SuiteContext, m: SuiteMeasure, config: Configuration): Promise<SuiteOutcome> {
  const purpose: Purpose = { kind: 'stage', id: `stage-${config.label}`, name: `stage throughput, ${config.label}` }
  const measured = await measureConfiguration(config, options(ctx, m, purpose))
  const { stats, verdicts } = analyzeStageThroughput(measured, ctx.thresholds)
  return writeSuiteRecord(ctx, {
    ...purpose,
    measurements: [measured],
    stats: { ...stats },
    verdicts,
    ...stateOf([measured]),
  })
}

export interface MemorySuiteConfigs {
  main: Configuration
  oom: Configuration | null
  /** [on, off], or why there is no such pair. */
  persistent: [Configuration, Configuration] | string
}

export async function runMemorySuite(ctx: SuiteContext, m: SuiteMeasure, c: MemorySuiteConfigs): Promise<SuiteOutcome> {
  const purpose: Purpose = { kind: 'memory', id: `memory-${c.main.label}`, name: `memory, ${c.main.label}` }
  const main = await measureConfiguration(c.main, options(ctx, m, purpose))
  // One run of a configuration that cannot fit is enough: it is meant to end as OOM, so no warm-up and no repeats.
  const oom = c.oom ? await measureConfiguration(c.oom, { ...options(ctx, m, purpose), policy: runs(m, 0, 1) }) : null
  const pair = typeof c.persistent === 'string' ? null : await measureArms(c.persistent, options(ctx, m, purpose))
  const persistent = pair ? { on: pair[0]!, off: pair[1]! } : null
  const reason = typeof c.persistent === 'string' ? c.persistent : undefined
  const { stats, verdicts } = analyzeMemory({ main, oom, persistent, persistentReason: reason }, ctx.thresholds)
  const measurements = [main, ...(oom ? [oom] : []), ...(pair ?? [])]
  // The OOM configuration is expected to fail; only the others make the record failed.
  const state = stateOf([main, ...(pair ?? [])])
  return writeSuiteRecord(ctx, {
    ...purpose,
    measurements,
    stats: { ...stats },
    verdicts,
    ...state,
  })
}

export interface E2eSuiteInputs {
  typical: { config: Configuration; input: string }
  large: { config: Configuration; input: string } | null
  /** The profile's optimization matrix (profile-configs.ts) and its input. */
  matrix: { matrix: OptimizationMatrix; input: string } | null
}

export async function runE2eSuite(
  ctx: SuiteContext,
  m: SuiteMeasure,
  e2eRuns: number,
  i: E2eSuiteInputs,
): Promise<SuiteOutcome> {
  const label = i.typical.config.label
  const purpose: Purpose = { kind: 'e2e', id: `e2e-${label}`, name: `end to end, ${label}` }
  // No warm-up: start-up is part of what a user waits for end to end.
  const typical = await measureConfiguration(i.typical.config, {
    ...options(ctx, m, purpose),
    input: i.typical.input,
    policy: runs(m, 0, e2eRuns),
  })
  const once = { ...options(ctx, m, purpose), policy: runs(m, 0, 1) }
  const large = i.large ? await measureConfiguration(i.large.config, { ...once, input: i.large.input }) : null
  const arms = i.matrix?.matrix.arms ?? []
  const matrix =
    i.matrix && arms.length > 0
      ? await measureArms(
          arms.map((arm) => arm.config),
          { ...options(ctx, m, purpose), input: i.matrix.input },
        )
      : null
  // Every arm's runs against its switches (read from their logs) before any is judged.
  const matrixChecks = i.matrix ? checkMatrix(i.matrix.matrix, matrix ?? []) : null
  const { stats, verdicts } = analyzeE2e({ typical, large, matrix, matrixChecks }, ctx.thresholds)
  const measurements = [typical, ...(large ? [large] : []), ...(matrix ?? [])]
  return writeSuiteRecord(ctx, {
    ...purpose,
    measurements,
    stats: { ...stats },
    verdicts,
    ...stateOf(measurements),
  })
}

export async function runEquivalenceSuite(
  ctx: SuiteContext,
  m: SuiteMeasure,
  reference: Configuration,
  candidate: Configuration,
): Promise<SuiteOutcome> {
  const purpose: Purpose = {
    kind: 'equivalence',
    id: `equivalence-${candidate.label}`,
    name: `equivalence, ${candidate.label} vs ${reference.label}`,
  }
  // Outputs are deterministic per configuration: one run a side, interleaved.
  const once = { ...options(ctx, m, purpose), policy: runs(m, 0, 1) }
  const [ref, cand] = await measureArms([reference, candidate], once)
  const { stats, verdicts } = await analyzeEquivalence(ref!, cand!, ctx.thresholds)
  return writeSuiteRecord(ctx, {
    ...purpose,
    measurements: [ref!, cand!],
    stats: { ...stats },
    verdicts,
    ...stateOf([ref!, cand!]),
  })
}

export async function runSweepSuite(
  ctx: SuiteContext,
  m: SuiteMeasure,
  settings: Configuration[],
  id = 'sweep',
): Promise<SuiteOutcome> {
  const purpose: Purpose = { kind: 'sweep', id, name: `sweep over ${settings.length} settings` }
  const measured: MeasuredConfiguration[] = []
  for (const setting of settings) measured.push(await measureConfiguration(setting, options(ctx, m, purpose)))
  const { stats, verdicts } = analyzeSweep(measured)
  return writeSuiteRecord(ctx, {
    ...purpose,
    measurements: measured,
    stats: { ...stats },
    verdicts,
  })
}

export async function runAbSuite(
  ctx: SuiteContext,
  m: SuiteMeasure,
  a: Configuration,
  b: Configuration,
): Promise<SuiteOutcome> {
  const purpose: Purpose = { kind: 'ab', id: `ab-${b.label}-vs-${a.label}`, name: `A/B, ${b.label} vs ${a.label}` }
  const [ma, mb] = await measureArms([a, b], options(ctx, m, purpose))
  const { stats, verdicts } = analyzeAb(ma!, mb!, ctx.thresholds)
  return writeSuiteRecord(ctx, {
    ...purpose,
    measurements: [ma!, mb!],
    stats: { ...stats },
    verdicts,
    ...stateOf([ma!, mb!]),
  })
}
