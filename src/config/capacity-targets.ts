/**
 * What the capacity test aims at, per pipeline: the 6 M wall-time CI half-width a planner can decide on (per GPU
 * count) and the GPU-minutes the whole measurement may take (VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN overrides it).
 *
 * Why two sets. The bundled reference pipeline prints a batch line per batch and starts in seconds: +-3% on 1 GPU and
 * +-5% on more in 15 GPU-minutes (issue 24), met on H200 and H100. The unmodified VirNucPro starts in a minute or more
 * a run (it builds the 3B ESM-2 on the CPU in every run, per file on its 1-GPU path, once per worker on its 2-GPU path,
 * and spawns its workers), prints no batch line at the sizes a test can afford, and its 1-GPU path pays a build per
 * file of 10,000 proteins that only sizes of several files show: +-5% and +-8% in 60 GPU-minutes (issue 31).
 */
export interface CapacityTargets {
  /** The relative 6 M CI half-width for a configuration of `gpuCount` GPUs (the `width` stop rule). */
  ciHalfWidth: (gpuCount: number) => number
  budgetGpuMinutes: number
  /**
   * Where the pipeline runs another code path below a buffer (VirNucPro's v2 ESM-2 workers pack their first batch
   * only after 2,000 sequences; below it every batch goes through the flush path and no batch line is logged): a PASS
   * needs each worker of `stage` to get at least `itemsPerWorker` at the largest measured size, from `fromGpus` GPUs
   * on (the v1 path of one GPU has no such buffer). Null: no such threshold.
   */
  batching: { stage: string; itemsPerWorker: number; fromGpus: number } | null
}

/**
 * Whether a configuration runs the batching buffer's path: its architecture where known (issue 56: VirNucPro's v2.0
 * packs behind the buffer on one GPU too, `--parallel --gpus 0`), else from `fromGpus` GPUs on (records before issue
 * 56: a list of GPUs was what turned v2.0 on).
 */
export function onBatchingPath(
  batching: NonNullable<CapacityTargets['batching']>,
  gpuCount: number,
  architecture: string | null | undefined,
): boolean {
  return architecture ? architecture === 'v2.0' : gpuCount >= batching.fromGpus
}

/**
 * How the capacity design decides (capacity/decisions.ts), the same for every pipeline:
 * - `alpha`: the chance, over all looks, that a decided verdict is wrong (two-sided: alpha / 2 each way);
 * - `maxLooks`: the looks at most (the planned runs' and one after each design step); each judges its intervals at
 *   1 - alpha / maxLooks (Bonferroni: six looks at alpha 0.05 are 99.17% intervals, z = 2.64);
 * - `margin`: an interval wholly within +-margin of its threshold reads "at threshold" (decided: no affordable run
 *   moves it off the threshold, and a planner reads it as "right at the limit").
 * Why six looks: the 2-GPU VirNucPro measurement kept about 10 runs in 18 minutes; six looks leave five design steps
 * of one to four runs, while a look after every run of a 24-run budget would judge at 99.8% and decide later.
 */
export const DECISION = { alpha: 0.05, maxLooks: 6, margin: 0.05 } as const

/**
 * How the capacity design stops (VIRNUCPRO_BENCH_CAPACITY_STOP): `decided` (default) once every verdict in scope is
 * decided (PERF-01 at 45 K and 6 M per GPU count, k-vs-1 at 6 M, PERF-02 per GPU stage at 6 M); `width` once every 6 M
 * CI is as narrow as `ciHalfWidth` (the rule of issues 24 and 31: a planner who wants a figure, not a verdict).
 */
export type CapacityStopRule = 'decided' | 'width'
export const CAPACITY_STOP_RULES = ['decided', 'width'] as const satisfies readonly CapacityStopRule[]

export const REFERENCE_TARGETS: CapacityTargets = {
  ciHalfWidth: (gpuCount) => (gpuCount === 1 ? 0.03 : 0.05),
  budgetGpuMinutes: 15,
  // Its workers batch from their first sequence on.
  batching: null,
}

export const VIRNUCPRO_TARGETS: CapacityTargets = {
  ciHalfWidth: (gpuCount) => (gpuCount === 1 ? 0.05 : 0.08),
  budgetGpuMinutes: 60,
  // async_inference.py's buffer (`Starting inference on N sequences (buffer size: 2000)`), by reading a8d3e4b.
  batching: { stage: 'ESM-2 Feature Extraction', itemsPerWorker: 2_000, fromGpus: 2 },
}

/** The targets for the pipeline profile `profile` (VIRNUCPRO_BENCH_TARGET); the reference's for any other. */
export const capacityTargets = (profile: string | undefined): CapacityTargets =>
  profile === 'virnucpro' ? VIRNUCPRO_TARGETS : REFERENCE_TARGETS
