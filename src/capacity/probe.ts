/**
 * The sizes a capacity measurement fits, chosen before its first run (issue 48): one probe run of the 1-GPU
 * configuration at a small size reads the pipeline's structure from its own log (its files' size and items a record:
 * capacity/structure.ts), and the plan fits three sizes up to two of the units that repeat at production, holding out
 * the user's whole sample (or the next size up). The probe also warms the host (a cold first process: model files
 * read from disk the first time). Its run goes through the run journal under a label of its own, so a continuation
 * reads it back and plans the same sizes. VIRNUCPRO_BENCH_SIZES given by the user is used as given (no probe).
 */
import { sampleSizesProblem } from '../config/capacity-sample.ts'
import { capacityTargets } from '../config/capacity-targets.ts'
import type { SuiteContext } from '../engine/context.ts'
import { journalFor } from '../engine/journal-options.ts'
import { completedRuns, measureInterleaved, SUITE_POLICY } from '../engine/measure-configuration.ts'
import type { SuiteMeasure } from '../engine/record.ts'
import type { PresetName } from '../input/presets.ts'
import type { InputResolver, ResolvedInput } from '../input/resolver.ts'
import { type PipelineStructure, planSizes, repeatingUnit, type SizePlan, structureOf } from './structure.ts'
import type { SizedConfiguration } from './suite.ts'

/** Records of the probe run: small enough to cost start-up only, large enough to fill a batch or two. */
export const PROBE_RECORDS = 1_000
/** Without a user's sample (a generated preset, unbounded), the plan's sample: twice the largest size it fits. */
const PRESET_ROOM = 2

export interface CapacitySizes {
  inputs: ResolvedInput[]
  /** The plan (null where the user gave the sizes), with the sizes to hold out in order of preference. */
  plan: SizePlan | null
  structure: PipelineStructure | null
  /** The probe run's size and wall time (null where the user gave the sizes): what a forecast can stand on. */
  probe: { records: number; wallMs: number } | null
}

/**
 * The capacity sizes could not be planned: the probe run failed (its line names why, with the pipeline's own error
 * line). A file catches it and fails its capacity test with this one line, its other tests skipping with it (issue
 * 58: a crash in a file's set-up printed a code frame and `skipped 5 tests` without a reason).
 */
export class CapacityPlanError extends Error {
  override name = 'CapacityPlanError'
}

/** The probe's structure and its wall time: one run of `config` at PROBE_RECORDS records (fewer for a smaller sample). */
export async function probeStructure(
  ctx: SuiteContext,
  m: Omit<SuiteMeasure, 'input'>,
  config: SizedConfiguration,
  input: ResolvedInput,
): Promise<{ structure: PipelineStructure; wallMs: number }> {
  const label = `${config.config.label}, ${input.records.toLocaleString('en-US')} seqs structure probe`
  const [probe] = await measureInterleaved([{ config: { ...config.config, label }, input: input.file }], {
    ...m,
    policy: { ...(m.policy ?? SUITE_POLICY), warmupRuns: 0, minRuns: 1, maxRuns: 1 },
    profile: ctx.profile,
    workDir: ctx.workDir,
    // No record of its own: the probe is the plan's, and the capacity record says what it read.
    journal: journalFor(ctx, null),
  })
  const run = completedRuns(probe!)[0]
  if (!run)
    throw new CapacityPlanError(
      `capacity: the structure probe (${label}) did not complete: ${probe!.failure?.reason ?? 'no completed run'}; set VIRNUCPRO_BENCH_SIZES to measure at sizes of your own`,
    )
  return {
    structure: structureOf(
      { records: input.records, progress: run.measured.progress ?? [] },
      capacityTargets(ctx.profile.name).batching,
    ),
    wallMs: run.measured.run.wallMs,
  }
}

/**
 * The inputs the capacity measurement fits: the user's VIRNUCPRO_BENCH_SIZES where given, else the plan from a probe
 * run of `configs[0]` (1 GPU) over every configuration's repeating unit.
 */
export async function capacitySizes(
  ctx: SuiteContext,
  m: Omit<SuiteMeasure, 'input'>,
  configs: readonly SizedConfiguration[],
  resolver: InputResolver,
  preset: PresetName,
  given: readonly number[] | null,
): Promise<CapacitySizes> {
  if (given) return { inputs: await resolver.nested(preset, given), plan: null, structure: null, probe: null }
  const [smallest] = await resolver.nested(preset, [PROBE_RECORDS])
  const limit = resolver.sizeLimit(smallest!)
  // A sample no plan can split: the capacity answer fails in the one line the set-up already said (issue 58).
  const tooSmall = Number.isFinite(limit) ? sampleSizesProblem(limit, null) : null
  if (tooSmall) throw new CapacityPlanError(tooSmall)
  const probeInput =
    smallest!.records > limit / 4
      ? (await resolver.nested(preset, [Math.max(1, Math.floor(limit / 8))]))[0]!
      : smallest!
  const { structure, wallMs } = await probeStructure(ctx, m, configs[0]!, probeInput)
  const units = configs.map((c) => repeatingUnit(structure, c.gpuCount, c.config.architecture))
  const need = Math.max(0, ...units.map((u) => u?.records ?? 0))
  const sample = Number.isFinite(limit) ? limit : PRESET_ROOM * Math.max(need, 4_000)
  const plan = planSizes(units, sample)
  return {
    inputs: await resolver.nested(preset, plan.fitted),
    plan,
    structure,
    probe: { records: probeInput.records, wallMs },
  }
}
