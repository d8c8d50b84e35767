import { z } from 'zod'

/**
 * `stats` of a `shard` record (src/suites/shard/shard-suite.ts): one array task of a sharded production run. Shard `index` of
 * `count` of one input ran on this node's GPUs, at the shard's full size and at a nested work-stratified subset of it,
 * so the report can fit each shard's size model and merge the shards of one run (fleet time, straggler, N nodes
 * against 1). This schema is the one definition of the shape: the suite writes it, the report reads it.
 */

const EstimateStatSchema = z.object({
  median: z.number(),
  n: z.number().int().positive(),
  ci: z
    .object({
      low: z.number(),
      high: z.number(),
      level: z.number(),
      coverage: z.number().nullable(),
      method: z.string(),
    })
    .nullable(),
})

/** One arm's input: records, GPU work (bases of stop-free frames, record-work.ts) and the size the size model reads. */
const ArmSchema = z.object({
  /** The run group (`runs[].config.setup`) whose runs read this input. */
  setup: z.string().min(1),
  records: z.number().int().positive(),
  work: z.number().nonnegative(),
  /**
   * The input's size in sequences of the source's mean work (work / source work per record), the size model's unit as
   * in the capacity suite; the records when the source has no GPU work at all.
   */
  sequenceEquivalents: z.number().positive(),
})

export const ShardStatsSchema = z.object({
  shard: z
    .object({ index: z.number().int().nonnegative(), count: z.number().int().positive() })
    .refine((s) => s.index < s.count, { message: 'shard index must be below the count' }),
  /** The whole input the shards split (VIRNUCPRO_BENCH_INPUT, or the suite preset's fixture). */
  source: z.object({
    path: z.string(),
    sha256: z.string().min(1),
    records: z.number().int().positive(),
    work: z.number().nonnegative(),
    workPerRecord: z.number().nonnegative(),
    chunkLength: z.number().int().positive(),
  }),
  full: ArmSchema,
  /** The nested subset measured beside the shard for its size model; null when the shard is too small for one. */
  subset: ArmSchema.nullable(),
  /** Why there is no subset; null when there is one. */
  subsetProblem: z.string().nullable(),
  configuration: z.string().min(1),
  gpuCount: z.number().int().nonnegative(),
  host: z.string().min(1),
  gpuModel: z.string().min(1),
  /** Completed measured runs of the full shard. */
  measuredRuns: z.number().int().nonnegative(),
  /** Sequences one full-shard run processed (the pipeline's own count), null when no run completed. */
  sequences: z.number().int().nonnegative().nullable(),
  wallMs: EstimateStatSchema.nullable(),
  sequencesPerS: EstimateStatSchema.nullable(),
  /** Tokens the embedding stages (thresholds.perf02.stages) embedded per second of their stage time. */
  tokensPerS: EstimateStatSchema.nullable(),
  /** Per stage the full-shard runs logged: duration (ms). */
  stages: z.array(z.object({ stage: z.string(), durationMs: EstimateStatSchema.nullable() })),
  /** Energy of the sampled GPUs over a full-shard run (NVML counters), null without a monitor. */
  energyJ: EstimateStatSchema.nullable(),
  jPerSequence: EstimateStatSchema.nullable(),
})
export type ShardStats = z.infer<typeof ShardStatsSchema>
