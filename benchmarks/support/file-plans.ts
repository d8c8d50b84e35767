/**
 * What each file of the gpu project will run, as its settings plan it before anything has run (issue 57): the files
 * that will skip (not asked for, no GPU count for them, no array task), and for the others their pipeline runs (how
 * many, at which sizes, on how many GPUs) or that their time is no plan of runs (the NVML and monitor checks). The
 * first `[plan]` line's forecast prices these with the cost prior (src/config/forecast-prior.ts; prior-forecast.ts).
 * It reads the settings and follows the rules the files themselves follow (run-context.ts, capacity-inputs.ts,
 * main-job.ts, src/capacity/structure.ts and held-out-plan.ts, src/suites/index.ts); what it cannot know before a run
 * (the capacity design's top-ups, the settings study's screen) it leaves out, and says so where it matters.
 */
import { PROBE_RECORDS } from '../../src/capacity/probe.ts'
import { type PipelineStructure, planSizes, repeatingUnit, SIZE_RATIO } from '../../src/capacity/structure.ts'
import { MIN_SIZE_RATIO } from '../../src/config/capacity-sample.ts'
import { capacityTargets } from '../../src/config/capacity-targets.ts'
import { presetMeanLengthBp, type RunSize } from '../../src/config/forecast-prior.ts'
import { architectureOfArgs, referenceConfigs, virnucproConfigs } from '../../src/engine/profile-configs.ts'
import type { SuiteSettings } from '../../src/engine/settings.ts'
import { PRESETS, type PresetName } from '../../src/input/presets.ts'
import type { Architecture } from '../../src/pipeline/architecture-line.ts'
import { STUDY_NOT_ASKED, studyAsked, VALIDATION_NOT_ASKED, validationAsked } from './main-job.ts'

/** Runs of one configuration at one size. */
export interface PlannedRuns {
  size: RunSize
  gpus: number
  /**
   * The path the configuration asks for (src/engine/profile-configs.ts): every file's base configuration is v2.0
   * (`--parallel`, issue 56); the scaling file's baseline and a 1-GPU command line without --parallel, v1.0. The prior
   * prices each by a cost of its own path.
   */
  architecture: Architecture
  count: number
}

export type FileOutline =
  /** The file's tests skip: nothing runs, and it is not counted. */
  | { skip: string }
  /** Its time is no plan of pipeline runs: the prior's time for the file as measured. */
  | { fixed: true }
  /**
   * Its runs, and the parts it will run that no plan says ahead (the forecast is a lower bound then). `shared`: runs
   * other files measure too (the same configuration on the same input bytes), which the run journal measures once an
   * invocation and gives back to the others: counted once, with the first such file.
   */
  | {
      runs: PlannedRuns[]
      unplanned: string[]
      shared?: { group: string; runs: PlannedRuns[] }
      /**
       * GPU-minutes and GPUs held of what the capacity design may add beyond the planned runs (its budget less what
       * they take): how much longer the file may take, said apart from the forecast.
       */
      design?: { gpuMinutes: number; held: number }[]
    }

export interface OutlineContext {
  env: NodeJS.ProcessEnv
  settings: SuiteSettings
  /** The pipeline profile (VIRNUCPRO_BENCH_TARGET): `reference` or `virnucpro`. */
  pipeline: string
  gpuCount: number
  /** The user's sample (VIRNUCPRO_BENCH_INPUT): its records and mean length; null for the generated presets. */
  user: RunSize | null
  /** Items a record makes in VirNucPro's per-file stage at a mean length (the prior's), or null where none is kept. */
  itemsPerRecord: ((meanLengthBp: number) => number) | null
  /** The GPU-minutes one run of `size` on `gpus` GPUs on `architecture` costs by the prior; null: it has none. */
  gpuMinutes: (size: RunSize, gpus: number, architecture: Architecture) => number | null
}

/** The size `records` of `preset` (0: the preset's own count), or of the user's sample (0: all of it). */
function sizeOf(o: OutlineContext, preset: PresetName, records: number): RunSize {
  if (o.user)
    return {
      records: records > 0 ? Math.min(records, o.user.records) : o.user.records,
      meanLengthBp: o.user.meanLengthBp,
    }
  return { records: records > 0 ? records : PRESETS[preset].records, meanLengthBp: presetMeanLengthBp(preset) }
}

/** The suite preset's input at its records, as most files measure it (run-context.ts useGpuSuite). */
const suiteInput = (o: OutlineContext) => sizeOf(o, o.settings.preset, o.settings.records)
/** Warm-ups and measured runs a configuration gets (VIRNUCPRO_BENCH_WARMUP, VIRNUCPRO_BENCH_RUNS). */
const warmup = (o: OutlineContext) => o.settings.policy.warmupRuns
const runs = (o: OutlineContext) => o.settings.policy.maxRuns

/** The GPU counts the capacity test measures here (scaling.gpu.test.ts hostConfigs, CAPACITY_GPUS). */
function capacityGpuCounts(o: OutlineContext): number[] {
  const asked = o.settings.capacityGpus
  return [1, 2, 4, 8].filter((n) => n <= o.gpuCount && (n === 1 || !asked || asked.includes(n)))
}

/** The structure a probe would read, by the prior: VirNucPro's files of proteins and its 2-GPU buffer. */
function priorStructure(o: OutlineContext, meanLengthBp: number): PipelineStructure {
  const batching = capacityTargets(o.pipeline).batching
  const itemsPerRecord = o.itemsPerRecord?.(meanLengthBp) ?? null
  return {
    probeRecords: PROBE_RECORDS,
    perFile:
      o.pipeline === 'virnucpro' && itemsPerRecord
        ? { stage: 'ESM-2 Feature Extraction', itemsPerFile: 10_000, itemsPerRecord }
        : null,
    batching: batching && itemsPerRecord ? { ...batching, itemsPerRecord, counted: true } : null,
  }
}

/**
 * The runs the 1-GPU base configuration makes at the suite's input (memory's main runs and the stage suite's): one
 * measurement an invocation, the other file gets it back from the run journal (the H200 main job: `stage-throughput >
 * 1 GPU: 3 runs and 1 warm-up shared`). The scaling file's sizes are subsets cut from a larger input, other bytes.
 */
function baseAtSuiteInput(o: OutlineContext): { group: string; runs: PlannedRuns[] } {
  const size = suiteInput(o)
  return {
    group: `1 GPU at ${size.records} records`,
    runs: [{ size, gpus: 1, architecture: 'v2.0', count: warmup(o) + runs(o) }],
  }
}

/**
 * The memory file's persistent-models pair (on, off) on its one GPU, each as the suite's policy measures it, where the
 * profile makes one there: VirNucPro reads the flag only in its multi-GPU pools, so on 1 GPU it says why and runs none
 * (src/engine/profile-configs.ts); the reference pipeline has none.
 */
function persistentPair(o: OutlineContext): PlannedRuns[] {
  const configs = o.pipeline === 'virnucpro' ? virnucproConfigs() : referenceConfigs(o.settings.modelScale)
  const pair = configs.persistentModels([0])
  if (typeof pair === 'string') return []
  const architecture = architectureOfArgs(pair[0].extraArgs ?? [], 1)
  return [{ size: suiteInput(o), gpus: 1, architecture, count: 2 * (warmup(o) + runs(o)) }]
}

/** The capacity test's runs (capacity-inputs.ts, src/capacity/probe.ts, held-out-plan.ts): probe, sizes, held-out. */
export function capacityRuns(
  o: OutlineContext,
  gpus: number[] = capacityGpuCounts(o),
  /** The path planned for (its unit: v2.0's buffer a worker, v1.0's file on one GPU): the suite's default is v2.0. */
  architecture: Architecture = 'v2.0',
): PlannedRuns[] {
  if (gpus.length === 0) return []
  const meanLengthBp = o.user?.meanLengthBp ?? presetMeanLengthBp(o.settings.preset)
  const out: PlannedRuns[] = []
  let fitted: number[]
  let heldOut: number[]
  if (o.settings.sizesGiven) {
    // Held out above given sizes (capacity-inputs.ts givenHeldOut): the user's sample where it is MIN_SIZE_RATIO above
    // the largest, for a generated input a size SIZE_RATIO above it.
    fitted = [...o.settings.sizes].sort((a, b) => a - b)
    const largest = fitted.at(-1)!
    heldOut = !o.user ? [largest * SIZE_RATIO] : o.user.records >= largest * MIN_SIZE_RATIO ? [o.user.records] : []
  } else {
    out.push({
      size: { records: Math.min(PROBE_RECORDS, o.user?.records ?? PROBE_RECORDS), meanLengthBp },
      gpus: 1,
      architecture,
      count: 1,
    })
    const units = gpus.map((k) => repeatingUnit(priorStructure(o, meanLengthBp), k, architecture))
    const need = Math.max(0, ...units.map((u) => u?.records ?? 0))
    const plan = planSizes(units, o.user?.records ?? 2 * Math.max(need, 4_000))
    fitted = plan.fitted
    heldOut = plan.heldOut
  }
  for (const k of gpus) {
    out.push({ size: { records: fitted[0]!, meanLengthBp }, gpus: k, architecture, count: warmup(o) })
    for (const records of fitted) out.push({ size: { records, meanLengthBp }, gpus: k, architecture, count: runs(o) })
  }
  out.push(...heldOutRuns(o, gpus, architecture, fitted.at(-1)!, heldOut, meanLengthBp, out))
  return out.filter((r) => r.count > 0)
}

/** The held-out run on each GPU count checked: the first size of the preference the budget left affords, or none. */
function heldOutRuns(
  o: OutlineContext,
  gpus: number[],
  architecture: Architecture,
  largest: number,
  preference: number[],
  meanLengthBp: number,
  planned: PlannedRuns[],
): PlannedRuns[] {
  const checked =
    o.settings.capacityDirect.length > 0 ? gpus.filter((k) => o.settings.capacityDirect.includes(k)) : gpus
  // The test's budget (scaling.gpu.test.ts passes one GPU-minute less) less what the planned runs take, the probe apart.
  const spent = planned
    .slice(o.settings.sizesGiven ? 0 : 1)
    .reduce((a, r) => a + (o.gpuMinutes(r.size, r.gpus, r.architecture) ?? 0) * r.count, 0)
  const left = o.settings.capacityBudgetGpuMin - 1 - spent
  for (const records of preference.filter((r) => r > largest)) {
    const size = { records, meanLengthBp }
    const cost = checked.reduce((a, k) => a + (o.gpuMinutes(size, k, architecture) ?? 0), 0)
    if (cost <= left) return checked.map((k) => ({ size, gpus: k, architecture, count: 1 }))
  }
  return []
}

/**
 * What the capacity design may add to `planned` (capacityRuns of the same GPU counts): the test's budget
 * (scaling.gpu.test.ts passes one GPU-minute less) less every planned run but the probe, on the GPUs the host holds
 * for it (the most of `gpus`).
 */
export function designAllowance(o: OutlineContext, gpus: number[], planned: PlannedRuns[]) {
  if (gpus.length === 0) return []
  const spent = planned
    .slice(o.settings.sizesGiven ? 0 : 1)
    .reduce((a, r) => a + (o.gpuMinutes(r.size, r.gpus, r.architecture) ?? 0) * r.count, 0)
  return [{ gpuMinutes: Math.max(0, o.settings.capacityBudgetGpuMin - 1 - spent), held: Math.max(...gpus) }]
}

/** The capacity test's runs on `gpus` and what its design may add. */
function capacityPart(o: OutlineContext, gpus: number[], architecture: Architecture) {
  const runs = capacityRuns(o, gpus, architecture)
  return { runs, design: designAllowance(o, gpus, runs) }
}

/** Each file of the gpu project by its path; a file not listed has no outline (its forecast follows its first run). */
const OUTLINES: Record<string, (o: OutlineContext) => FileOutline> = {
  // The v2.0 answer, then the v1.0 baseline's own (VIRNUCPRO_BENCH_V1_GPUS: its own probe, plan and held-out run).
  'benchmarks/scaling.gpu.test.ts': (o) => {
    const v2 = capacityPart(o, capacityGpuCounts(o), 'v2.0')
    const v1 = capacityPart(
      o,
      o.settings.v1Gpus.filter((n) => n <= o.gpuCount),
      'v1.0',
    )
    return { runs: [...v2.runs, ...v1.runs], unplanned: [], design: [...v2.design, ...v1.design] }
  },
  'benchmarks/stage-throughput.gpu.test.ts': (o) => ({ runs: [], unplanned: [], shared: baseAtSuiteInput(o) }),
  'benchmarks/e2e.gpu.test.ts': (o) => ({
    runs: [
      { size: sizeOf(o, 'TYPICAL', o.settings.e2eSequences), gpus: 1, architecture: 'v2.0', count: o.settings.e2eRuns },
      ...(o.settings.largeSequences > 0
        ? [{ size: sizeOf(o, 'LARGE', o.settings.largeSequences), gpus: 1, architecture: 'v2.0' as const, count: 1 }]
        : []),
    ],
    unplanned: o.settings.matrix ? ['the optimization matrix (VIRNUCPRO_BENCH_MATRIX)'] : [],
  }),
  'benchmarks/memory.gpu.test.ts': (o) => ({
    runs: [
      // The configuration meant to end as OOM: one run, its command line without --parallel (v1.0 on one GPU).
      { size: suiteInput(o), gpus: 1, architecture: 'v1.0', count: 1 },
      ...persistentPair(o),
    ],
    unplanned: [],
    shared: baseAtSuiteInput(o),
  }),
  // VirNucPro's pair runs --parallel (v2.0); the reference pipeline's fp32 / fp16 pair none (v1.0 on one GPU).
  'benchmarks/equivalence.gpu.test.ts': (o) => ({
    runs: [{ size: suiteInput(o), gpus: 1, architecture: o.pipeline === 'virnucpro' ? 'v2.0' : 'v1.0', count: 2 }],
    unplanned: [],
  }),
  'benchmarks/monitor.gpu.test.ts': () => ({ fixed: true }),
  'benchmarks/nvml.gpu.test.ts': () => ({ fixed: true }),
  'benchmarks/runner.gpu.test.ts': () => ({ fixed: true }),
  'benchmarks/shard.gpu.test.ts': (o) =>
    o.env.VIRNUCPRO_BENCH_SHARD?.trim()
      ? { runs: [], unplanned: ['the shard suite (VIRNUCPRO_BENCH_SHARD)'] }
      : { skip: 'VIRNUCPRO_BENCH_SHARD not set' },
  'benchmarks/study.gpu.test.ts': (o) =>
    studyAsked(o.env)
      ? { runs: [], unplanned: ['the settings study (it forecasts its screen after its warm-up)'] }
      : { skip: STUDY_NOT_ASKED },
}

/** The outline of `file` (relative to the repository), or null where none is kept. */
export function fileOutline(file: string, o: OutlineContext): FileOutline | null {
  const path = file.replaceAll('\\', '/')
  if (path.includes('benchmarks/validation/')) {
    if (!validationAsked(o.env)) return { skip: VALIDATION_NOT_ASKED }
    if (path.includes('/multi-gpu/') && o.gpuCount < 2) return { skip: `needs 2 GPUs, this host has ${o.gpuCount}` }
    return { runs: [], unplanned: ['the validation known answers'] }
  }
  return OUTLINES[path]?.(o) ?? null
}
