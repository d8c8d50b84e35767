/**
 * The validation campaign's plan: each scenario's planted fault (refpipe `--inject`), input size and extra options,
 * sized so that the single-GPU file set runs in a few minutes on one H200 (full scale) and the multi-GPU set on two.
 * A fault verdict is about the fault, not statistics: fault scenarios run once, no warm-up. docs/VALIDATION.md lists
 * the same scenarios (test/validation/scenarios.test.ts checks that it does).
 */

import type { Configuration } from '../engine/configuration.ts'
import { DEFAULT_REPETITION_POLICY, type RepetitionPolicy } from '../measure/index.ts'

export const ESM2 = 'ESM-2 Feature Extraction'

export interface Scenario {
  id: string
  /** `--inject` values; empty for a clean run. */
  inject: string[]
  /** Input records (MEDIUM generator parameters, seed 1). */
  records: number
  /** Further predict options the scenario needs (e.g. a token budget that yields enough batches). */
  extraArgs: string[]
  gpus: number[]
  expected: string
}

/** One measured run, no warm-up. */
export const ONCE: RepetitionPolicy = { ...DEFAULT_REPETITION_POLICY, warmupRuns: 0, minRuns: 1, maxRuns: 1 }

/** Planted amounts, named so tests compare against the same numbers the runs were given. */
export const PLANTED = {
  cpuStallMs: 2_000,
  leakMib: 512,
  imbalanceShare: 2,
  slowStage: 'Feature Merging',
  slowStageS: 8,
  hangTimeoutMs: 20_000,
} as const

/** Records of the full-scale clean and scaling runs. */
export const FULL_RECORDS = 5_000
/**
 * The projection check's full input and its 10% subset (stratified by GPU work, fixtures/sample.ts). The subset is
 * the e2e suite's typical size (MEDIUM, 1,000), so the check tests the projection as the suite uses it; it also gives
 * ESM-2 8 batch lines to fit its rate on (a 500-record subset gave 4, 3 after the warm-up one: +3% on the rate).
 */
export const PROJECTION_FULL_RECORDS = 10_000
export const PROJECTION_SUBSET_RECORDS = 1_000
/**
 * The capacity (size model) known-answer check: fit at CAPACITY_FIT_SIZES, measure directly at CAPACITY_DIRECT_SIZE
 * (5x the largest fitted size), all of them nested subsets of one MEDIUM-parameter input, interleaved. Then a fixed
 * cost (CAPACITY_FIXED_COST_S in the ESM-2 stage) planted at CAPACITY_SHIFT_SIZES, compared with the clean runs at
 * those sizes, interleaved with clean runs in one measurement: the 6 M projection must move by < 1%, so the fits must be
 * far tighter than that (+-0.7% from 1,000 and 20,000 records on an H200, +-6% from 1,000 and 4,000), hence the wider
 * sizes; 16,000 keeps four arms, 3 runs each, inside one 10-minute device call. And a per-batch stall
 * (CAPACITY_STALL_MS before each ESM-2 batch) at the fit sizes: longer than a batch's GPU time (~300 ms at full scale on
 * an H200), or the stall hides behind the batch in flight (200 ms moved ESM-2's steady state from 98.6% to 93.9%
 * only). Runs: 1 warm-up and CAPACITY_RUNS per arm.
 */
export const CAPACITY_FIT_SIZES = [1_000, 4_000] as const
export const CAPACITY_DIRECT_SIZE = 20_000
/**
 * Runs of the direct size, measured after the fit with no warm-up of their own (the fit's warm-ups warmed the host):
 * one GPU count's fit and its direct runs fit one 10-minute device call on an H100 (the fit ~2.2 min, a 20,000-record
 * run ~1.3 min on 1 GPU), so a 2-GPU host checks its two arms in two calls on the same warm machine. Three, so that the
 * median is a run's: with two it is their mean, and on 2 x H200 (2026-11-26, run c24f) one run slowed host-wide (its
 * process start 5.3 s against 4.1, its CPU stages 1.4-2x, ESM-2 unchanged) decided the check alone (-5.67%; the other
 * run -2.2%).
 */
export const CAPACITY_DIRECT_RUNS = 3
/** Planted start-up that grows with the input (prework-ms-per-seq): ms per protein before ESM-2's first batch. */
export const CAPACITY_PREWORK_MS_PER_SEQ = 1
export const CAPACITY_SHIFT_SIZES = [1_000, 16_000] as const
export const CAPACITY_FIXED_COST_S = 10
export const CAPACITY_STALL_MS = 1_000
export const CAPACITY_RUNS = 3

/**
 * The history's known answer (benchmarks/validation/history): HISTORY_NIGHTS commits of a stepped target, the stall
 * added at HISTORY_STEP_AT (5 nights before it: a change needs 3 a side, and 5 make the permutation test's smallest p
 * well below 0.05), HISTORY_RUNS runs a night on HISTORY_RECORDS MEDIUM-parameter records; the stall is longer than a
 * batch's GPU time (CAPACITY_STALL_MS says why).
 */
export const HISTORY_NIGHTS = 10
export const HISTORY_STEP_AT = 5
export const HISTORY_RUNS = 3
export const HISTORY_RECORDS = 300
export const HISTORY_STALL_MS = 1_000

/** Small input for fault scenarios where one short run decides. */
export const FAULT_RECORDS = 300

export const SCENARIOS: readonly Scenario[] = [
  {
    id: 'clean',
    inject: [],
    records: FULL_RECORDS,
    extraArgs: [],
    gpus: [0],
    expected: 'no fault flags; PERF-02 per its numbers; leak checks pass',
  },
  {
    id: 'cpu-stall',
    inject: [`cpu-stall-ms=${PLANTED.cpuStallMs}`],
    records: FAULT_RECORDS,
    extraArgs: ['--esm-batch-size', '16384'],
    gpus: [0],
    expected: 'PERF-02 fails for ESM-2; starvation flag with its recommendation',
  },
  {
    id: 'leak',
    inject: [`leak-mb=${PLANTED.leakMib}`],
    records: 1_000,
    extraArgs: ['--esm-batch-size', '8192'],
    gpus: [0],
    expected: 'memory/esm2-slope fails; estimated MiB/batch within 20% of planted',
  },
  {
    id: 'oom',
    inject: ['oom'],
    records: FAULT_RECORDS,
    extraArgs: [],
    gpus: [0],
    expected: 'exit class oom, memory/oom-handling passes, no survivors, GPU memory released',
  },
  {
    id: 'slow-stage',
    inject: [`slow-stage=${PLANTED.slowStage}:${PLANTED.slowStageS}`],
    records: FAULT_RECORDS,
    extraArgs: [],
    gpus: [0],
    expected: 'the report ranks Feature Merging first with its share; time-share flag',
  },
  {
    id: 'crash-at',
    inject: [`crash-at=${ESM2}`],
    records: FAULT_RECORDS,
    extraArgs: [],
    gpus: [0],
    expected: 'exit class failed, record failed, no survivors',
  },
  {
    id: 'hang-at',
    inject: [`hang-at=${ESM2}`],
    records: FAULT_RECORDS,
    extraArgs: [],
    gpus: [0],
    expected: 'exit class timeout, record failed, no survivors',
  },
  {
    id: 'imbalance',
    inject: [`imbalance=${PLANTED.imbalanceShare}`],
    records: 1_000,
    extraArgs: [],
    gpus: [0, 1],
    expected: 'balance/ESM-2 flags, slowest worker on GPU 0',
  },
  {
    id: 'misplace',
    inject: ['misplace'],
    records: FAULT_RECORDS,
    extraArgs: [],
    gpus: [0],
    expected: 'placement fails naming GPUs 0,1 used for 0 asked',
  },
  {
    id: 'scaling',
    inject: [],
    records: FULL_RECORDS,
    extraArgs: [],
    gpus: [0, 1],
    expected: 'speedup with CI; verdict consistent with CI and band',
  },
]

/**
 * The scenario by id.
 * @throws RangeError naming the id and the known ones.
 */
export function scenario(id: string): Scenario {
  const found = SCENARIOS.find((s) => s.id === id)
  if (!found) throw new RangeError(`unknown scenario '${id}' (known: ${SCENARIOS.map((s) => s.id).join(', ')})`)
  return found
}

/** `base` with the scenario's fault and options added, labelled by the scenario (labels name records and folders). */
export function faultConfig(base: Configuration, s: Scenario): Configuration {
  const inject = s.inject.flatMap((value) => ['--inject', value])
  return {
    ...base,
    label: `${base.label}, ${s.id}`,
    extraArgs: [...(base.extraArgs ?? []), ...s.extraArgs, ...inject],
  }
}
