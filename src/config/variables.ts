/**
 * Every `VIRNUCPRO_BENCH_*` variable the suite reads (found by grep over src/, benchmarks/, reporters/, scripts/,
 * native/ and .ci/), each with the one parser its value goes through. Doctor and the gpu project's global setup check
 * them all before any work; the suites read theirs through `readSetting`, so a value is refused in the same words
 * wherever it is read. Two are parsed by their own modules above this one (SHARD: src/engine/shard-settings.ts,
 * SWEEP: src/engine/sweep-grid.ts) and are checked with the parsers those modules hand to `checkSettings`.
 */
import { PRESET_NAMES } from '../input/presets.ts'
import { PROFILES } from '../pipeline/profiles.ts'
import { parseAbArms } from './ab-arms.ts'
import { CAPACITY_STOP_RULES } from './capacity-targets.ts'
import {
  anyText,
  choice,
  decimalInteger,
  directoryName,
  gpuCountList,
  gpuCountsOrNone,
  onlyOne,
  parsedBy,
  type Setting,
  sizeList,
  yesNo,
} from './env-parsers.ts'
import { pathSetting } from './path-settings.ts'
import { pipelineArgs } from './pipeline-args.ts'

/**
 * The longest run ID or campaign task: a task ends record file names (`<id>.<task>.json`) within 255 bytes, and a short
 * host name (up to 63) with its `-t<index>` fits.
 */
const DIRECTORY_NAME_MAX_CHARS = 128

/** The GPU counts the capacity answer builds configurations of (benchmarks/support/run-context.ts capacityConfigs). */
export const CAPACITY_GPU_COUNTS = [1, 2, 4, 8] as const

export const VARIABLES = {
  VIRNUCPRO_BENCH_MODEL_SCALE: choice('reference pipeline model size', ['tiny', 'small', 'full'] as const),
  VIRNUCPRO_BENCH_PRESET: choice('fixture preset of the GPU suites', PRESET_NAMES, true),
  VIRNUCPRO_BENCH_RECORDS: decimalInteger('records of that preset (0: its own count)', 0, undefined, 1000),
  VIRNUCPRO_BENCH_RUNS: decimalInteger('measured runs per configuration', 1, undefined, 3),
  VIRNUCPRO_BENCH_WARMUP: decimalInteger('warm-up runs per configuration', 0, undefined, 1),
  VIRNUCPRO_BENCH_E2E_SEQUENCES: decimalInteger('sequences of the end-to-end sample', 1, undefined, 5000),
  VIRNUCPRO_BENCH_E2E_RUNS: decimalInteger('measured end-to-end runs', 1, undefined, 2),
  VIRNUCPRO_BENCH_LARGE_SEQUENCES: decimalInteger(
    'sequences of the large-sample run (0, the default, skips it)',
    0,
    undefined,
    0,
  ),
  VIRNUCPRO_BENCH_MATRIX: yesNo(
    'the optimization-impact matrix on or off (default off: 4 or 5 more arms, minutes of GPU time)',
  ),
  VIRNUCPRO_BENCH_STUDY: yesNo(
    "the settings study on the target's default grid in the gpu project (default off; VIRNUCPRO_BENCH_SWEEP also runs it)",
  ),
  VIRNUCPRO_BENCH_VALIDATION: yesNo(
    "the validation known answers (benchmarks/validation) in the gpu project (default off: the main job's 10 minutes)",
  ),
  VIRNUCPRO_BENCH_MONITOR_INTERVAL_MS: decimalInteger('GPU monitor poll interval (ms)', 1, undefined, 100),
  VIRNUCPRO_BENCH_RUN_TIMEOUT_MS: decimalInteger('time limit of one target run (ms)', 1000, undefined, 540_000),
  VIRNUCPRO_BENCH_SIZES: sizeList(
    "records of the nested subsets the scaling suite fits (unset: planned by a probe run from the pipeline's structure)",
  ),
  VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: decimalInteger(
    "GPU-minutes the capacity suite's runs may take, its top-up runs included (default 15 for the reference pipeline, 60 for VirNucPro)",
    1,
    undefined,
    15,
  ),
  VIRNUCPRO_BENCH_JOB_LIMIT_S: decimalInteger(
    "seconds one invocation of the gpu project may take, a scheduler's job limit (default 600; 0: none): the capacity design and its held-out check stop short of it, the same command again goes on, and the first line says how many such limits the work takes",
    0,
    undefined,
    600,
  ),
  VIRNUCPRO_BENCH_CAPACITY_GPUS: gpuCountList(
    'GPU counts the capacity measurement compares (default 1, 2, 4 and 8 as the host holds them; 1 is always the baseline)',
    CAPACITY_GPU_COUNTS,
  ),
  VIRNUCPRO_BENCH_CAPACITY_DIRECT: gpuCountList(
    "GPU counts whose held-out size (the user's whole sample, else the next size up) the capacity suite runs directly to check its projection (default every one measured)",
    CAPACITY_GPU_COUNTS,
  ),
  VIRNUCPRO_BENCH_V1_GPUS: gpuCountsOrNone(
    "GPU counts on which the pipeline's v1.0 path (no --parallel on one GPU, --v1-fallback on more) gets a capacity answer of its own beside v2.0's, the baseline of 'v2.0 against v1.0' (default 1 for VirNucPro, none for the reference pipeline; `none` leaves it out)",
    CAPACITY_GPU_COUNTS,
  ),
  VIRNUCPRO_BENCH_CAPACITY_STOP: choice(
    'when the capacity design stops: decided (every verdict in scope decided) or width (every 6 M CI on its target)',
    CAPACITY_STOP_RULES,
    true,
  ),
  VIRNUCPRO_BENCH_DEVICE: choice('where the suites run the target', ['gpu', 'cpu'] as const, true),
  // Its work directory is `work/<task>` (src/engine/context.ts workDirOf): `..` once put a task's files in the run
  // directory itself, so it is one directory name, refused otherwise rather than rewritten.
  VIRNUCPRO_BENCH_TASK: directoryName("this invocation's task name in a campaign", DIRECTORY_NAME_MAX_CHARS),
  VIRNUCPRO_BENCH_TARGET: choice('the pipeline the suites drive', Object.keys(PROFILES)),
  VIRNUCPRO_BENCH_PIPELINE_ARGS: pipelineArgs(
    "the pipeline's own predict options, added to every configuration the suites run (words split as a shell splits them, e.g. --esm-batch-size 4096 --threads 32)",
  ),
  VIRNUCPRO_BENCH_INPUT: pathSetting(
    "the user's sample",
    'either',
    false,
    'point it at a FASTA file, a .fa.gz or a directory of FASTA parts, or unset it to use generated fixtures',
  ),
  VIRNUCPRO_BENCH_THRESHOLDS: pathSetting(
    'JSON file of threshold overrides',
    'file',
    false,
    'point it at a JSON file of threshold overrides, or unset it for the defaults',
  ),
  VIRNUCPRO_BENCH_RESULTS_DIR: pathSetting('results root', 'directory', true, 'point it at a directory, or unset it'),
  VIRNUCPRO_BENCH_REPORTS_DIR: pathSetting('reports directory', 'directory', true, 'point it at a directory'),
  VIRNUCPRO_BENCH_BASELINE: pathSetting(
    'stored run directory to compare with',
    'directory',
    false,
    'point it at a run directory (results/<runId>), or unset it',
  ),
  VIRNUCPRO_BENCH_HISTORY: pathSetting('history database', 'file', true, 'point it at a .sqlite file, or unset it'),
  VIRNUCPRO_BENCH_RUN_ID: directoryName('run ID shared by the run', DIRECTORY_NAME_MAX_CHARS),
  VIRNUCPRO_BENCH_KEEP_OUTPUTS: onlyOne("keep the pipeline's tensor outputs"),
  VIRNUCPRO_BENCH_FRESH: onlyOne('start a new run instead of continuing an interrupted one'),
  VIRNUCPRO_BENCH_AB: parsedBy('the A/B arms (JSON)', parseAbArms, 'see benchmarks/ab.gpu.bench.ts for the form'),
  VIRNUCPRO_BENCH_NVML_ADDON: pathSetting('the nvml.node to load', 'file', false, 'point it at a built nvml.node'),
  VIRNUCPRO_BENCH_NVML_LIB: anyText('the libnvidia-ml to dlopen'),
  VIRNUCPRO_BENCH_SKIP_NVML_BUILD: onlyOne('skip building the NVML addon at install'),
  VIRNUCPRO_BENCH_DEBUG: onlyOne('print the stack of an internal error'),
  VIRNUCPRO_BENCH_PLANT_SLOWDOWN_PCT: decimalInteger(
    'percent of its own cost the CPU benches add to the code under test (proves a ratio fails; benchmarks/support)',
    0,
    1000,
    30,
  ),
  VIRNUCPRO_BENCH_CACHE: anyText("CI's cache directory (.ci/run)"),
  VIRNUCPRO_BENCH_SMOKE: onlyOne('run every bench once on reduced sizes, not judged (the smoke pass CI runs)'),
  // The CPU benches' own (benchmarks/support/baseline, benchmarks/support/against): scripts/bench.ts sets the first
  // two from `npm run bench -- --save-baseline` and `--against REV`.
  VIRNUCPRO_BENCH_SAVE_BASELINE: onlyOne("start a new baseline of this machine's CPU benches from this run"),
  VIRNUCPRO_BENCH_AGAINST: pathSetting(
    "the other revision's checkout the CPU benches run beside this one (npm run bench -- --against REV)",
    'directory',
    false,
    'use npm run bench -- --against REV, which prepares it',
  ),
  VIRNUCPRO_BENCH_BASELINE_DIR: pathSetting(
    "where the CPU benches keep this machine's baselines (default .bench-baselines/ in the checkout)",
    'directory',
    true,
    'point it at a directory, or unset it',
  ),
  // Read by the tests alone (test/support/optional-tools.ts, which refuses a name that is not an optional tool).
  VIRNUCPRO_BENCH_REQUIRE_TOOLS: anyText('optional tools whose tests fail instead of skipping where missing (.ci/run)'),
  VIRNUCPRO_BENCH_SLURM_DIR: anyText("the CI Slurm's state directory (.ci/slurm-up.sh)"),
  VIRNUCPRO_BENCH_SLURM_PORT: decimalInteger("the CI slurmctld's port", 1, 65_534, 16_817),
  VIRNUCPRO_BENCH_SLURM_START_TIMEOUT_S: decimalInteger(
    'how long the CI Slurm may take to start (s)',
    1,
    undefined,
    60,
  ),
  VIRNUCPRO_BENCH_SLURM_STOP_TIMEOUT_S: decimalInteger('how long the CI Slurm may take to stop (s)', 1, undefined, 20),
} satisfies Record<string, Setting<unknown>>

export type VariableName = keyof typeof VARIABLES
type ValueOf<N extends VariableName> = ReturnType<(typeof VARIABLES)[N]['parse']>

/** Variables parsed by the modules that read them (above src/config); listed so that they are known names. */
export const PARSED_ELSEWHERE = ['VIRNUCPRO_BENCH_SHARD', 'VIRNUCPRO_BENCH_SWEEP'] as const

/** Every variable name the suite reads. */
export const KNOWN_VARIABLES: readonly string[] = [...Object.keys(VARIABLES), ...PARSED_ELSEWHERE]

/** A variable's value as its reader sees it: trimmed, and undefined when unset or blank. */
export function rawSetting(env: NodeJS.ProcessEnv, name: string): string | undefined {
  const raw = env[name]?.trim()
  return raw ? raw : undefined
}

/**
 * A variable's parsed value, or undefined when it is unset or blank.
 * @throws SettingError naming the variable, its value, the problem and the fix.
 */
export function readSetting<N extends VariableName>(env: NodeJS.ProcessEnv, name: N): ValueOf<N> | undefined {
  const raw = rawSetting(env, name)
  return raw === undefined ? undefined : (VARIABLES[name].parse(raw, name) as ValueOf<N>)
}
