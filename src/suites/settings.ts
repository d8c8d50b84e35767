/**
 * Suite settings from the environment, sized so that the whole `gpu` project at `full` scale on one GPU takes
 * minutes, not hours. Every knob has an env override (names below); a bad value throws naming the variable.
 */

import type { PresetName } from '../fixtures/presets.ts'
import { PRESET_NAMES } from '../fixtures/presets.ts'
import { DEFAULT_REPETITION_POLICY, type RepetitionPolicy } from '../measure/index.ts'

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
  /** VIRNUCPRO_BENCH_LARGE_SEQUENCES: the large-sample stability run (LARGE preset); 0 skips it. Default 10,000. */
  largeSequences: number
  /** VIRNUCPRO_BENCH_MATRIX: 0 skips the optimization-impact matrix. Default on. */
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
  /** VIRNUCPRO_BENCH_DEVICE: gpu (default) or cpu; see targetDevice. */
  device: TargetDevice
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
 * from its batch lines (capacity-rates.ts), so start-up noise no longer enters the per-sequence cost; what is left is
 * mostly whole-stage slowdowns of the host (a host-bound stage ran 1.6x slower in one of three runs on an H100), which
 * a wider spread of sizes does not divide and more runs do: 1,000 / 10,000 records cost 13.1 GPU-minutes on a 2 x H100
 * host for a 6 M CI of +-13% (1 GPU), where 1,000 / 4,000 cost ~9 and leave the budget's rest to the sequential
 * design's top-up runs at 4,000 (capacity-topup.ts). docs/VALIDATION.md has the figures measured.
 */
export const DEFAULT_SIZES = [1_000, 4_000]

export class SuiteSettingsError extends Error {
  override name = 'SuiteSettingsError'
}

function integer(env: NodeJS.ProcessEnv, name: string, fallback: number, min: number): number {
  const raw = env[name]?.trim()
  if (!raw) return fallback
  const value = Number(raw)
  if (!Number.isSafeInteger(value) || value < min)
    throw new SuiteSettingsError(`${name} must be an integer >= ${min}, got '${raw}'`)
  return value
}

/** @throws SuiteSettingsError naming the variable and its bad value. */
export function suiteSettings(env: NodeJS.ProcessEnv = process.env): SuiteSettings {
  const scale = env.VIRNUCPRO_BENCH_MODEL_SCALE?.trim() || 'full'
  if (!['tiny', 'small', 'full'].includes(scale))
    throw new SuiteSettingsError(`VIRNUCPRO_BENCH_MODEL_SCALE must be tiny, small or full, got '${scale}'`)
  const preset = (env.VIRNUCPRO_BENCH_PRESET?.trim().toUpperCase() || 'MEDIUM') as PresetName
  if (!PRESET_NAMES.includes(preset))
    throw new SuiteSettingsError(`VIRNUCPRO_BENCH_PRESET must be one of ${PRESET_NAMES.join(', ')}, got '${preset}'`)
  const runs = integer(env, 'VIRNUCPRO_BENCH_RUNS', 3, 1)
  const warmupRuns = integer(env, 'VIRNUCPRO_BENCH_WARMUP', 1, 0)
  return {
    modelScale: scale,
    preset,
    records: integer(env, 'VIRNUCPRO_BENCH_RECORDS', 0, 0),
    policy: { ...DEFAULT_REPETITION_POLICY, warmupRuns, minRuns: runs, maxRuns: runs },
    e2eSequences: integer(env, 'VIRNUCPRO_BENCH_E2E_SEQUENCES', 5_000, 1),
    e2eRuns: integer(env, 'VIRNUCPRO_BENCH_E2E_RUNS', 2, 1),
    largeSequences: integer(env, 'VIRNUCPRO_BENCH_LARGE_SEQUENCES', 10_000, 0),
    matrix: env.VIRNUCPRO_BENCH_MATRIX?.trim() !== '0',
    monitorIntervalMs: integer(env, 'VIRNUCPRO_BENCH_MONITOR_INTERVAL_MS', 100, 1),
    runTimeoutMs: integer(env, 'VIRNUCPRO_BENCH_RUN_TIMEOUT_MS', 540_000, 1_000),
    sizes: sizeList(env),
    device: targetDevice(env),
  }
}

/** VIRNUCPRO_BENCH_DEVICE: `gpu` (default) or `cpu`. @throws SuiteSettingsError for any other value. */
export function targetDevice(env: NodeJS.ProcessEnv = process.env): TargetDevice {
  const raw = env.VIRNUCPRO_BENCH_DEVICE?.trim().toLowerCase() || 'gpu'
  if (raw !== 'gpu' && raw !== 'cpu')
    throw new SuiteSettingsError(`VIRNUCPRO_BENCH_DEVICE must be gpu or cpu, got '${raw}'`)
  return raw
}

/**
 * VIRNUCPRO_BENCH_TASK: this invocation's name among the tasks of one campaign that share a run directory (set by the
 * job scripts of src/cluster as `<host>-t<array task>`). Its records' ids end in `.<task>` and its scratch and run-cache
 * directories are its own, so tasks on one host or many never overwrite, reuse or mix each other's runs. Null outside
 * a campaign. Characters outside [A-Za-z0-9._-] become `-` (the record id's alphabet).
 */
export function campaignTask(env: NodeJS.ProcessEnv = process.env): string | null {
  const raw = env.VIRNUCPRO_BENCH_TASK?.trim()
  if (!raw) return null
  return raw.replace(/[^A-Za-z0-9._-]/g, '-').slice(0, 64)
}

/** VIRNUCPRO_BENCH_SIZES: distinct integers >= 2, at least two of them. */
function sizeList(env: NodeJS.ProcessEnv): number[] {
  const raw = env.VIRNUCPRO_BENCH_SIZES?.trim()
  if (!raw) return DEFAULT_SIZES
  const sizes = raw.split(',').map((part) => Number(part.trim()))
  const bad = sizes.some((n) => !Number.isSafeInteger(n) || n < 2)
  if (bad || new Set(sizes).size !== sizes.length || sizes.length < 2)
    throw new SuiteSettingsError(
      `VIRNUCPRO_BENCH_SIZES must be two or more distinct record counts >= 2, comma-separated (e.g. 1000,10000), got '${raw}'`,
    )
  return sizes.sort((a, b) => a - b)
}
