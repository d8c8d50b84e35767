/**
 * What decides how much work an invocation of the gpu project does, beside what its run key holds (the code, the
 * target, the GPUs, the driver, the user's input: run-keys.ts): the settings that size its runs and count them, the
 * thresholds its designs stop by, and the command line that picks its files and tests. A forecast from an earlier
 * invocation is only honest for the same plan (issue 58: a 14-s invocation at a 1 GPU-minute budget forecast "about
 * 14 s" for a default one of many minutes). Kept in each invocation's progress ledger (ledger.ts, its `invocation`
 * line) and compared whole: any difference, and no forecast from that invocation.
 *
 * Values as given, trimmed: an unset setting and its default written out count as two plans (no forecast, rather than
 * a forecast of another plan's work); the thresholds file by its bytes' hash; the command line's arguments after the
 * vitest binary, which name the project, the files (`benchmarks/scaling.gpu.test.ts`) and the tests (`-t capacity`).
 */
import { createHash } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { KNOWN_VARIABLES, rawSetting } from '../../config/variables.ts'

/**
 * The settings that change the work (each with why), read by the gpu project's files and their shared support.
 * Every variable the suite reads is in this list or in NOT_WORK_SETTINGS (test/engine/invocation-progress/plan-key.test.ts).
 */
export const WORK_SETTINGS = [
  // Where and what runs: the CPU takes minutes where a GPU takes seconds; the model's size sets each run's cost.
  'VIRNUCPRO_BENCH_DEVICE',
  'VIRNUCPRO_BENCH_MODEL_SCALE',
  // The inputs' sizes: the suites' preset and records, the capacity sizes, e2e's samples, a shard's share.
  'VIRNUCPRO_BENCH_PRESET',
  'VIRNUCPRO_BENCH_RECORDS',
  'VIRNUCPRO_BENCH_SIZES',
  'VIRNUCPRO_BENCH_E2E_SEQUENCES',
  'VIRNUCPRO_BENCH_LARGE_SEQUENCES',
  'VIRNUCPRO_BENCH_SHARD',
  // How many runs: per configuration, e2e's, the capacity design's budget, GPU counts, held-out checks, stop rule.
  'VIRNUCPRO_BENCH_RUNS',
  'VIRNUCPRO_BENCH_WARMUP',
  'VIRNUCPRO_BENCH_E2E_RUNS',
  'VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN',
  'VIRNUCPRO_BENCH_CAPACITY_GPUS',
  'VIRNUCPRO_BENCH_CAPACITY_DIRECT',
  'VIRNUCPRO_BENCH_CAPACITY_STOP',
  // Where each invocation's capacity design stops short (a job limit): what one invocation measures.
  'VIRNUCPRO_BENCH_JOB_LIMIT_S',
  // The v1.0 baseline's own capacity answer (issue 56), on these GPU counts; the user's own options in every run.
  'VIRNUCPRO_BENCH_V1_GPUS',
  'VIRNUCPRO_BENCH_PIPELINE_ARGS',
  // Which parts run at all: the matrix, the study and its grid, the validation files, the A/B arms.
  'VIRNUCPRO_BENCH_MATRIX',
  'VIRNUCPRO_BENCH_STUDY',
  'VIRNUCPRO_BENCH_SWEEP',
  'VIRNUCPRO_BENCH_VALIDATION',
  'VIRNUCPRO_BENCH_AB',
  // How each run is taken: its time limit (a hung run lasts it), the monitor's rate, outputs kept or pruned.
  'VIRNUCPRO_BENCH_RUN_TIMEOUT_MS',
  'VIRNUCPRO_BENCH_MONITOR_INTERVAL_MS',
  'VIRNUCPRO_BENCH_KEEP_OUTPUTS',
] as const

/** The variables that change no gpu-project work, or are in the run key already (state.json's `key`). */
export const NOT_WORK_SETTINGS = [
  // In the run key: the target and the user's input (their versions and bytes).
  'VIRNUCPRO_BENCH_TARGET',
  'VIRNUCPRO_BENCH_INPUT',
  // Hashed below by content, not by path.
  'VIRNUCPRO_BENCH_THRESHOLDS',
  // Where things go and which run: places, the run ID, a campaign task (its own work directory and ledgers), a fresh start.
  'VIRNUCPRO_BENCH_RESULTS_DIR',
  'VIRNUCPRO_BENCH_REPORTS_DIR',
  'VIRNUCPRO_BENCH_BASELINE',
  'VIRNUCPRO_BENCH_HISTORY',
  'VIRNUCPRO_BENCH_RUN_ID',
  'VIRNUCPRO_BENCH_TASK',
  'VIRNUCPRO_BENCH_FRESH',
  // The NVML binding and the debug output.
  'VIRNUCPRO_BENCH_NVML_ADDON',
  'VIRNUCPRO_BENCH_NVML_LIB',
  'VIRNUCPRO_BENCH_SKIP_NVML_BUILD',
  'VIRNUCPRO_BENCH_DEBUG',
  // The CPU benches' and CI's own, never read by the gpu project's tests.
  'VIRNUCPRO_BENCH_PLANT_SLOWDOWN_PCT',
  'VIRNUCPRO_BENCH_CACHE',
  'VIRNUCPRO_BENCH_SMOKE',
  'VIRNUCPRO_BENCH_SAVE_BASELINE',
  'VIRNUCPRO_BENCH_AGAINST',
  'VIRNUCPRO_BENCH_BASELINE_DIR',
  'VIRNUCPRO_BENCH_REQUIRE_TOOLS',
  'VIRNUCPRO_BENCH_SLURM_DIR',
  'VIRNUCPRO_BENCH_SLURM_PORT',
  'VIRNUCPRO_BENCH_SLURM_START_TIMEOUT_S',
  'VIRNUCPRO_BENCH_SLURM_STOP_TIMEOUT_S',
] as const

/** An invocation's plan: plain JSON, compared whole (run-key.ts keyDifferences). */
export type PlanKey = Record<string, unknown>

/** The thresholds file's sha256 (12 hex digits), `unreadable` when it cannot be read, null when none is set. */
function thresholdsHash(env: NodeJS.ProcessEnv): string | null {
  const path = rawSetting(env, 'VIRNUCPRO_BENCH_THRESHOLDS')
  if (path === undefined) return null
  try {
    return createHash('sha256').update(readFileSync(path)).digest('hex').slice(0, 12)
  } catch {
    return 'unreadable'
  }
}

/**
 * This invocation's plan (see the file's comment).
 * @param args the command line after the vitest binary (`process.argv.slice(2)`: `run --project gpu FILE -t NAME`)
 */
export function planKey(env: NodeJS.ProcessEnv, args: readonly string[]): PlanKey {
  const settings = Object.fromEntries(WORK_SETTINGS.map((name) => [name, rawSetting(env, name) ?? null]))
  return { settings, thresholds: thresholdsHash(env), args: [...args] }
}

/** Variables the suite reads that neither list names: a new setting must be sorted into one (the test checks). */
export function unsortedSettings(): string[] {
  const sorted = new Set<string>([...WORK_SETTINGS, ...NOT_WORK_SETTINGS])
  return KNOWN_VARIABLES.filter((name) => !sorted.has(name))
}
