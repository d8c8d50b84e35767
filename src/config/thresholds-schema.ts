import { z } from 'zod'

/** Default floor of the `gpu-imbalance` rule (bottleneck.imbalanceMinUtilPct): twice the monitor's idle line (10%). */
export const IMBALANCE_MIN_UTIL_PCT = 20

/** Default of study.minConsensusAgreement: VirNucPro's own bar for its v2.0 path (99.87% measured: docs/UPSTREAM.md). */
export const MIN_CONSENSUS_AGREEMENT = 0.99

/**
 * Every threshold the suite judges against, in one place, with upstream's targets as defaults (UPSTREAM.md): PERF-01
 * end-to-end time, PERF-02 utilization in the embedding stages, PERF-03 and the scaling bands, the regression gate, the
 * bottleneck rule, memory limits. A host overrides any of them with a JSON file named by VIRNUCPRO_BENCH_THRESHOLDS
 * (partial: only the keys it changes); the thresholds in force are stored in every result record.
 */
export const ThresholdsSchema = z.object({
  perf01: z.object({
    /** PERF-01: a typical sample (45,000 sequences) in under 10 h. */
    targetMs: z.number().positive(),
    tolerance: z.number().nonnegative(),
    typicalSequences: z.number().int().positive(),
    productionSequences: z.number().int().positive(),
    minSequencesPerHour: z.number().nonnegative(),
    minUtilPct: z.number().min(0).max(100),
  }),
  perf02: z.object({ minUtilPct: z.number().min(0).max(100), stages: z.array(z.string()).min(1) }),
  perf03: z.object({ gpus: z.number().int().min(2), stage: z.string(), minSpeedup: z.number().positive() }),
  /** Acceptable speedup band [low, high] by GPU count; above high is flagged (superlinear), not failed. */
  scalingBands: z.record(z.string().regex(/^\d+$/), z.tuple([z.number().positive(), z.number().positive()])),
  regression: z.object({ timeThreshold: z.number().positive().lt(1) }),
  bottleneck: z.object({
    maxStageShare: z.number().positive().max(1),
    minGpuUtilPct: z.number().min(0).max(100),
    /**
     * `gpu-imbalance` needs the busier GPU of a stage at or above this mean utilization (%): below it a per-GPU spread
     * is noise (a single-process stage at 0.6% on one GPU and 0% on the other spreads 200%). Defaulted, so records
     * written before the key existed still load.
     */
    imbalanceMinUtilPct: z.number().min(0).max(100).default(IMBALANCE_MIN_UTIL_PCT),
  }),
  balance: z.object({ maxSpread: z.number().positive() }),
  memory: z.object({
    leakToleranceBytes: z.number().nonnegative(),
    maxPeakShareOfCapacity: z.number().positive().max(1),
  }),
  equivalence: z.object({
    rtol: z.number().nonnegative(),
    atol: z.number().nonnegative(),
    minLabelAgreement: z.number().min(0).max(1),
  }),
  /**
   * The settings study's outputs rule (src/study/outputs.ts), not the equivalence suite's: a setting's outputs are the
   * default's when its consensus labels (prediction_results_highestscore.csv, Is_Virus per Modified_ID, the same IDs)
   * agree with the default's on at least this share; the score differences are reported beside it, not judged.
   * Defaulted, so records written before the section existed still load.
   */
  study: z
    .object({ minConsensusAgreement: z.number().min(0).max(1) })
    .default({ minConsensusAgreement: MIN_CONSENSUS_AGREEMENT }),
})
export type Thresholds = z.infer<typeof ThresholdsSchema>

const HOUR_MS = 3_600_000

export const DEFAULT_THRESHOLDS: Thresholds = {
  perf01: {
    targetMs: 10 * HOUR_MS,
    tolerance: 0.1,
    typicalSequences: 45_000,
    productionSequences: 6_000_000,
    minSequencesPerHour: 500,
    minUtilPct: 70,
  },
  perf02: { minUtilPct: 80, stages: ['DNABERT-S Feature Extraction', 'ESM-2 Feature Extraction'] },
  perf03: { gpus: 2, stage: 'ESM-2 Feature Extraction', minSpeedup: 1.9 },
  scalingBands: { '2': [1.6, 2.0], '4': [3.0, 4.0], '8': [6.0, 8.0] },
  regression: { timeThreshold: 0.1 },
  bottleneck: { maxStageShare: 0.3, minGpuUtilPct: 80, imbalanceMinUtilPct: IMBALANCE_MIN_UTIL_PCT },
  balance: { maxSpread: 0.1 },
  memory: { leakToleranceBytes: 100 * 2 ** 20, maxPeakShareOfCapacity: 0.95 },
  equivalence: { rtol: 1e-3, atol: 1e-3, minLabelAgreement: 0.99 },
  study: { minConsensusAgreement: MIN_CONSENSUS_AGREEMENT },
}
