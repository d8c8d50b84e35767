/**
 * What the capacity known answers (benchmarks/validation/capacity) run at: full scale on a GPU (scenarios.ts
 * CAPACITY_*: why each size), and on the CPU (VIRNUCPRO_BENCH_DEVICE=cpu: the reference pipeline's tiny models in a
 * CPU campaign of test/) at the sizes of the in-process CPU known answers (test/validation/capacity-cpu-*.test.ts), so
 * the file itself runs end to end beside the capacity answer and its records and console read back as a GPU run's
 * (test/validation/capacity-console.test.ts). The CPU sizes prove what the file writes and prints, not its tolerances:
 * those are the GPU's, so on the CPU each check is skipped with that reason once it annotated its figures.
 */
import type { PresetName } from '../input/presets.ts'
import {
  CAPACITY_DIRECT_RUNS,
  CAPACITY_DIRECT_SIZE,
  CAPACITY_FIT_SIZES,
  CAPACITY_FIXED_COST_S,
  CAPACITY_PREWORK_MS_PER_SEQ,
  CAPACITY_RUNS,
  CAPACITY_SHIFT_SIZES,
  CAPACITY_STALL_MS,
} from './scenarios.ts'

export interface CapacityKnownAnswerSizes {
  /** The generated input every size is a nested subset of (never the user's: a known answer needs a known input). */
  preset: PresetName
  fitRecords: readonly number[]
  shiftRecords: readonly number[]
  directRecords: number
  directRuns: number
  runs: number
  /** Warm-ups of each fit's smallest size. */
  warmupRuns: number
  fixedCostS: number
  stallMs: number
  preworkMsPerSeq: number
  /**
   * Why the checks' tolerances are not judged here (null: they are): each check then annotates its figures, keeps its
   * records and is skipped with this reason, never passed.
   */
  notJudged: string | null
}

const ON_GPU: CapacityKnownAnswerSizes = {
  preset: 'MEDIUM',
  fitRecords: CAPACITY_FIT_SIZES,
  shiftRecords: CAPACITY_SHIFT_SIZES,
  directRecords: CAPACITY_DIRECT_SIZE,
  directRuns: CAPACITY_DIRECT_RUNS,
  runs: CAPACITY_RUNS,
  warmupRuns: 1,
  fixedCostS: CAPACITY_FIXED_COST_S,
  stallMs: CAPACITY_STALL_MS,
  preworkMsPerSeq: CAPACITY_PREWORK_MS_PER_SEQ,
  notJudged: null,
}

/**
 * Runs of 3-8 s each on 2 cores: the direct check on 1 GPU (4 runs and 1 direct) within half a minute; no warm-up,
 * which buys nothing for figures that are not judged.
 */
const ON_CPU: CapacityKnownAnswerSizes = {
  preset: 'SMALL',
  fitRecords: [8, 16],
  shiftRecords: [8, 16],
  directRecords: 40,
  directRuns: 1,
  runs: 2,
  warmupRuns: 0,
  fixedCostS: 2,
  stallMs: 200,
  preworkMsPerSeq: 40,
  notJudged:
    "on the CPU (VIRNUCPRO_BENCH_DEVICE=cpu) the tolerances are not judged: they are set for a GPU's full-scale runs, not the tiny models' (figures annotated, records kept)",
}

export const capacityKnownAnswerSizes = (device: 'gpu' | 'cpu'): CapacityKnownAnswerSizes =>
  device === 'cpu' ? ON_CPU : ON_GPU
