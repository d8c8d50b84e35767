/**
 * Suite settings from the environment, sized so that the whole `gpu` project at `full` scale on one GPU takes
 * minutes, not hours. Every knob has an env override (names below), parsed by src/config/variables.ts; a bad value
 * throws naming the variable, the value, the problem and the fix.
 */

import { noHeldOutNote, sampleSizesProblem } from '../config/capacity-sample.ts'
import { type CapacityStopRule, capacityTargets } from '../config/capacity-targets.ts'
import { checkSettings, type SettingProblem } from '../config/check.ts'
import { parsedBy, type Setting } from '../config/env-parsers.ts'
import { type PARSED_ELSEWHERE, readSetting, type VariableName } from '../config/variables.ts'
import { type InputIdentity, identifyInput } from '../input/identity.ts'
import type { PresetName } from '../input/presets.ts'
import { DEFAULT_WORK_CHUNK_LENGTH } from '../input/sample.ts'
import { DEFAULT_REPETITION_POLICY, type RepetitionPolicy } from '../measure/index.ts'
import { checkPipelineArgs, type HelpReader } from './pipeline-args-check.ts'
import { parseShardSpec } from './shard-settings.ts'
import { parseSweepGrid } from './sweep-grid.ts'

export interface SuiteSettings {
  /** VIRNUCPRO_BENCH_MODEL_SCALE (reference pipeline only): tiny | small | full. Default full. */
  modelScale: string
  /** VIRNUCPRO_BENCH_PRESET: fixture preset of scaling, stage, memory, equivalence and benches. Default MEDIUM. */
  preset: PresetName
  /** VIRNUCPRO_BENCH_RECORDS: records override of that preset (0: the preset's). */
  records: number
  /** VIRNUCPRO_BENCH_WARMUP / VIRNUCPRO_BENCH_RUNS: warm-ups and measured runs per configuration. Default 1 / 3. */
  policy: RepetitionPolicy
  /** VIRNUCPRO_BENCH_E2E_SEQUENCES: the typical-like sample. Default 5,000. */
  e2eSequences: number
  /** VIRNUCPRO_BENCH_E2E_RUNS: measured runs of that sample (no warm-up: start-up is part of e2e time). Default 2. */
  e2eRuns: number
  /** VIRNUCPRO_BENCH_LARGE_SEQUENCES: the large-sample stability run (LARGE preset); 0 skips it. Default 0 (issue 44). */
  largeSequences: number
  /** VIRNUCPRO_BENCH_MATRIX: 1, true, yes or on adds the optimization-impact matrix to e2e. Default off (issue 44). */
  matrix: boolean
  /** VIRNUCPRO_BENCH_MONITOR_INTERVAL_MS: monitor poll interval. Default 100. */
  monitorIntervalMs: number
  /** VIRNUCPRO_BENCH_RUN_TIMEOUT_MS: one target run ends (as timeout) after this. Default 540,000 (9 min). */
  runTimeoutMs: number
  /**
   * VIRNUCPRO_BENCH_SIZES: records of the nested subsets the scaling suite fits its size model from, e.g.
   * `1000,10000` (at least two, ascending after parsing). Default DEFAULT_SIZES.
   */
  sizes: number[]
  /**
   * Whether VIRNUCPRO_BENCH_SIZES was given: the capacity measurement then fits those sizes; else it plans its own
   * from the pipeline's structure (src/capacity/probe.ts).
   */
  sizesGiven: boolean
  /**
   * VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: GPU-minutes (runs' wall time x GPUs held) the capacity suite may spend,
   * the sequential design's top-up runs included. Default 15; the runs get a minute less (inputs, fits, reports).
   */
  capacityBudgetGpuMin: number
  /** VIRNUCPRO_BENCH_CAPACITY_STOP: `decided` (default) or `width` (config/capacity-targets.ts CapacityStopRule). */
  capacityStop: CapacityStopRule
  /**
   * VIRNUCPRO_BENCH_JOB_LIMIT_S: seconds one invocation of the gpu project may take (a scheduler's job limit; 0: none).
   * Default DEFAULT_JOB_LIMIT_S.
   */
  jobLimitS: number
  /**
   * VIRNUCPRO_BENCH_CAPACITY_DIRECT: GPU counts whose held-out size (the user's whole sample, else the next size up)
   * the capacity suite runs directly, once each, kept out of the fit to check its projection there. Default empty:
   * every configuration measured (issue 48: a FINAL answer is one its held-out check confirmed).
   */
  capacityDirect: number[]
  /** GPU counts of the v1.0 baseline's capacity answer (VIRNUCPRO_BENCH_V1_GPUS; [] none). */
  v1Gpus: number[]
  /**
   * VIRNUCPRO_BENCH_CAPACITY_GPUS: the GPU counts the capacity measurement compares (1 always among them: the baseline
   * of every speedup). Default null: 1, 2, 4 and 8 as the host holds them.
   */
  capacityGpus: number[] | null
  /** VIRNUCPRO_BENCH_DEVICE: gpu (default) or cpu; see targetDevice. */
  device: TargetDevice
  /**
   * VIRNUCPRO_BENCH_PIPELINE_ARGS: the user's own `predict` options, as words, added to every configuration
   * (profile-configs.ts configsFor). Default none.
   */
  pipelineArgs: string[]
}

/**
 * Where the suites run the target. `cpu` stands in for a GPU host on a machine without one (a Slurm campaign dry-run
 * on a CPU partition, the cluster tests in CI): every configuration keeps its label and GPU count but runs on the CPU
 * (profile-configs.ts), its GPU readings come from whatever NVML the host has (a fake one in the tests), so the
 * records prove the plumbing, never a GPU figure.
 */
export type TargetDevice = 'gpu' | 'cpu'

/**
 * The scaling suite's default sizes: 1,000 and 4,000 records. Each GPU stage's steady part is read inside every run
 * from its batch lines (capacity/rates.ts), so start-up noise no longer enters the per-sequence cost; what is left is
 * mostly whole-stage slowdowns of the host (a host-bound stage ran 1.6x slower in one of three runs on an H100), which
 * a wider spread of sizes does not divide and more runs do: 1,000 / 10,000 records cost 13.1 GPU-minutes on a 2 x H100
 * host for a 6 M CI of +-13% (1 GPU), where 1,000 / 4,000 cost ~9 and leave the budget's rest to the sequential
 * design's top-up runs at 4,000 (capacity/topup.ts). docs/VALIDATION.md has the figures measured.
 */
export const DEFAULT_SIZES = [1_000, 4_000]
/**
 * A common scheduler's shortest limit for a GPU job, and the one the main job is made to fit on one GPU (issue 57):
 * past it the capacity design stops short and the same command again goes on.
 */
export const DEFAULT_JOB_LIMIT_S = 600
/**
 * What an invocation keeps of its job limit after a capacity measurement: the tests after it (they read its runs back;
 * the stage-throughput file shares its runs with memory's), the reports of the global teardown, and the limit's own
 * slack (a scheduler signals at the limit, not before). On an H100 the main job's scaling file ended 10 s before the
 * last file, whose reports took a few seconds more (docs/results/2026-12-07-main-job-h100).
 */
export const JOB_END_KEEP_MS = 45_000

/** A bad setting: one line naming the variable, its value, the problem and the fix (src/platform/setting-error.ts). */
export { SettingError as SuiteSettingsError } from '../platform/setting-error.ts'

/**
 * The suites' settings, each variable read through its one parser (src/config/variables.ts).
 * @throws SettingError naming the variable, its bad value, the problem and the fix.
 */
export function suiteSettings(env: NodeJS.ProcessEnv = process.env): SuiteSettings {
  const read = <N extends VariableName>(name: N) => readSetting(env, name)
  const runs = read('VIRNUCPRO_BENCH_RUNS') ?? 3
  const warmupRuns = read('VIRNUCPRO_BENCH_WARMUP') ?? 1
  return {
    modelScale: read('VIRNUCPRO_BENCH_MODEL_SCALE') ?? 'full',
    preset: read('VIRNUCPRO_BENCH_PRESET') ?? 'MEDIUM',
    records: read('VIRNUCPRO_BENCH_RECORDS') ?? 0,
    policy: { ...DEFAULT_REPETITION_POLICY, warmupRuns, minRuns: runs, maxRuns: runs },
    e2eSequences: read('VIRNUCPRO_BENCH_E2E_SEQUENCES') ?? 5_000,
    e2eRuns: read('VIRNUCPRO_BENCH_E2E_RUNS') ?? 2,
    // Off unless asked (issue 44): one 10,000-record run and its fixture, about 50 s of the main job on an H200.
    largeSequences: read('VIRNUCPRO_BENCH_LARGE_SEQUENCES') ?? 0,
    // Off unless asked (issue 44): 4 or 5 more arms of 1 warm-up and 3 runs (4 arms took about 4 of the main job's
    // minutes on an H200).
    matrix: read('VIRNUCPRO_BENCH_MATRIX') ?? false,
    monitorIntervalMs: read('VIRNUCPRO_BENCH_MONITOR_INTERVAL_MS') ?? 100,
    runTimeoutMs: read('VIRNUCPRO_BENCH_RUN_TIMEOUT_MS') ?? 540_000,
    sizes: read('VIRNUCPRO_BENCH_SIZES') ?? DEFAULT_SIZES,
    sizesGiven: read('VIRNUCPRO_BENCH_SIZES') !== undefined,
    // The pipeline's own budget (config/capacity-targets.ts) unless set: 15 for the reference pipeline, 60 for VirNucPro.
    capacityBudgetGpuMin:
      read('VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN') ??
      capacityTargets(read('VIRNUCPRO_BENCH_TARGET') ?? undefined).budgetGpuMinutes,
    capacityStop: read('VIRNUCPRO_BENCH_CAPACITY_STOP') ?? 'decided',
    jobLimitS: read('VIRNUCPRO_BENCH_JOB_LIMIT_S') ?? DEFAULT_JOB_LIMIT_S,
    capacityDirect: read('VIRNUCPRO_BENCH_CAPACITY_DIRECT') ?? [],
    // VirNucPro's own claim is v2.0 against v1.0 on one GPU (issue 56); the reference pipeline's main job leaves it out.
    v1Gpus:
      read('VIRNUCPRO_BENCH_V1_GPUS') ?? ((read('VIRNUCPRO_BENCH_TARGET') ?? 'reference') === 'virnucpro' ? [1] : []),
    capacityGpus: read('VIRNUCPRO_BENCH_CAPACITY_GPUS') ?? null,
    device: targetDevice(env),
    pipelineArgs: read('VIRNUCPRO_BENCH_PIPELINE_ARGS') ?? [],
  }
}

/** VIRNUCPRO_BENCH_DEVICE: `gpu` (default) or `cpu`. @throws SettingError for any other value. */
export function targetDevice(env: NodeJS.ProcessEnv = process.env): TargetDevice {
  return readSetting(env, 'VIRNUCPRO_BENCH_DEVICE') ?? 'gpu'
}

/**
 * VIRNUCPRO_BENCH_TASK: this invocation's name among the tasks of one campaign that share a run directory (set by the
 * job scripts of src/cluster as `<host>-t<array task>`). Its records' ids end in `.<task>` and its scratch and run-cache
 * directories are its own, so tasks on one host or many never overwrite, reuse or mix each other's runs. Null outside
 * a campaign. One directory name in the record id's alphabet, read as it is: a value that is not one (`..`, `a/b`) is
 * refused, never rewritten or cut into a name that another task's may equal.
 * @throws SettingError for a value that is no single directory name.
 */
export function campaignTask(env: NodeJS.ProcessEnv = process.env): string | null {
  return readSetting(env, 'VIRNUCPRO_BENCH_TASK') ?? null
}

/** The variables parsed by suite modules of their own, handed to the one settings check (src/config/check.ts). */
const SUITE_PARSED: Record<(typeof PARSED_ELSEWHERE)[number], Setting<unknown>> = {
  VIRNUCPRO_BENCH_SHARD: parsedBy(
    'the shard this array task runs',
    parseShardSpec,
    'set it to <index>/<count>, e.g. VIRNUCPRO_BENCH_SHARD=0/8',
  ),
  VIRNUCPRO_BENCH_SWEEP: parsedBy(
    'the parameter-sweep grid (JSON)',
    parseSweepGrid,
    'write it as JSON, e.g. {"--esm-batch-size": [8192, 16384], "--parallel": [true, false]} (docs/settings.md)',
  ),
}

export interface SuiteSettingsCheckOptions {
  cacheDir?: string
  readInput?: boolean
  onInput?: (identity: InputIdentity) => void
  /** Reads the target's `predict --help` (default: runs it, pipeline/target-help.ts). */
  readHelp?: HelpReader
  /** A check that could not be made here, in one line (the target's help not readable). */
  onNote?: (note: string) => void
}

/**
 * Every setting the gpu project reads, checked before any work (doctor and the gpu project's global setup): each
 * variable, the thresholds file, the input read as the suites read it (its identity, cached in `cacheDir` when
 * given, so the suites do not read it again), and the user's pipeline options against the target's own help.
 * @returns one line per problem; none when all is well.
 */
export async function checkSuiteSettings(
  env: NodeJS.ProcessEnv = process.env,
  options: SuiteSettingsCheckOptions = {},
): Promise<SettingProblem[]> {
  let records: number | null = null
  const readInput = async (path: string) => {
    const identity = await identifyInput(path, {
      source: 'user',
      chunkLength: DEFAULT_WORK_CHUNK_LENGTH,
      cacheDir: options.cacheDir,
    })
    records = identity.records
    options.onInput?.(identity)
  }
  const problems = await checkSettings(env, {
    parsedElsewhere: SUITE_PARSED,
    readInput: options.readInput === false ? false : readInput,
  })
  // The sample against the capacity answer's sizes (issue 58): one that cannot be planned is refused here, before any
  // run, not as a RangeError after the probe.
  const sizesBad = problems.some((p) => p.variable === 'VIRNUCPRO_BENCH_SIZES')
  if (records !== null && !sizesBad) {
    const sizes = readSetting(env, 'VIRNUCPRO_BENCH_SIZES') ?? null
    // Sizes the sample does not hold are a bad setting; a sample too small to plan sizes from is said (doctor, the
    // set-up), and only the capacity answer fails on it, in that one line (capacity/probe.ts): the other suites run.
    const problem = sampleSizesProblem(records, sizes)
    if (problem && sizes) problems.push({ variable: 'VIRNUCPRO_BENCH_SIZES', message: problem })
    else if (problem) options.onNote?.(problem)
    // Sizes that leave no size above them to hold out: said before any run (doctor too), the answer UNCHECKED.
    const none = !problem && sizes ? noHeldOutNote(records, sizes) : null
    if (none) options.onNote?.(none)
  }
  // The user's options against the target's help (issue 56), where both parse: an option it lacks fails here, not as
  // a usage error of every run.
  const bad = (name: string) => problems.some((p) => p.variable === name)
  if (!bad('VIRNUCPRO_BENCH_PIPELINE_ARGS') && !bad('VIRNUCPRO_BENCH_TARGET')) {
    const checked = await checkPipelineArgs(env, options.readHelp)
    if (checked.problem) problems.push({ variable: 'VIRNUCPRO_BENCH_PIPELINE_ARGS', message: checked.problem })
    if (checked.note) options.onNote?.(checked.note)
  }
  return problems
}
