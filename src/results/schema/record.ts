import { z } from 'zod'
import { ThresholdsSchema } from '../../config/thresholds.ts'
import { MonitorSummarySchema } from './monitor-summary.ts'
import { StageProgressSchema } from './progress.ts'
import { ProvenanceSchema } from './provenance.ts'
import { RunRecordSchema } from './run-record.ts'
import { ShardStatsSchema } from './shard-stats.ts'
import { VerdictSchema } from './verdict.ts'

export const RESULT_SCHEMA_VERSION = 1
export const RESULT_KINDS = [
  'scaling',
  'stage',
  'memory',
  'e2e',
  'equivalence',
  'sweep',
  'ab',
  'capacity',
  'shard',
  'study',
] as const
export type ResultKind = (typeof RESULT_KINDS)[number]

/** Who measured a run: the invocation (its writer token), the host and the process. */
export const MeasuredBySchema = z.object({
  invocation: z.string(),
  host: z.string(),
  pid: z.number().int(),
})
export type MeasuredBy = z.infer<typeof MeasuredBySchema>

const configValue = z.union([z.string(), z.number(), z.boolean(), z.null(), z.array(z.number())])

/**
 * One pipeline run inside a measurement: the configuration it ran (GPUs, batch size, injected faults...), whether it was
 * a warmup (kept, never counted), the runner's record and the monitor's summary of the same run.
 */
export const MeasuredRunSchema = z.object({
  label: z.string(),
  config: z.record(z.string(), configValue),
  warmup: z.boolean(),
  run: RunRecordSchema,
  gpu: MonitorSummarySchema.nullable(),
  /** Each GPU stage's own progress lines, per worker (absent in records written before they were kept). */
  progress: z.array(StageProgressSchema).optional(),
  /**
   * Present when the run was measured by an earlier invocation and kept in the run journal (src/engine/kept-runs.ts):
   * who measured it. A continued measurement names every run it reused.
   */
  keptFrom: MeasuredBySchema.optional(),
})
export type MeasuredRun = z.infer<typeof MeasuredRunSchema>

/**
 * One measurement, one file (ARCHITECTURE.md "Result record"). `stats` holds the kind's computed figures (speedups,
 * per-stage throughput, projections...: each suite documents its own); `verdicts` are what reports and gates read.
 * The monitor summary lives with each run (`runs[].gpu`) rather than once per record, since a record holds several runs.
 * A completed `shard` record's stats are checked against their schema (shard-stats.ts): the report merges shards
 * written by other nodes, and must never read a half-shaped one as measured.
 */
export const ResultRecordSchema = z
  .object({
    schemaVersion: z.literal(RESULT_SCHEMA_VERSION),
    /** Unique within the run ID; also the file name (`<id>.json`). */
    id: z.string().regex(/^[A-Za-z0-9._-]+$/),
    kind: z.enum(RESULT_KINDS),
    name: z.string().min(1),
    /**
     * `partial`: a measurement its invocation did not finish (stopped or killed), read from the run journal with the
     * runs it kept (src/results/partial-records.ts): figures, no verdict. Never written to a record file.
     */
    state: z.enum(['completed', 'failed', 'skipped', 'partial']),
    /** Why a record is failed, skipped or partial; null when completed. */
    reason: z.string().nullable(),
    /**
     * A partial record's one count of its runs: measured runs kept (warm-ups apart) of those its measurements planned
     * so far. Absent on written records (their runs are all there is).
     */
    kept: z.object({ runs: z.number().int().nonnegative(), planned: z.number().int().nonnegative() }).optional(),
    createdAt: z.string(),
    provenance: ProvenanceSchema,
    runs: z.array(MeasuredRunSchema),
    stats: z.record(z.string(), z.unknown()),
    thresholds: ThresholdsSchema,
    verdicts: z.array(VerdictSchema),
  })
  .superRefine((record, ctx) => {
    if (record.kind !== 'shard' || record.state !== 'completed') return
    const parsed = ShardStatsSchema.safeParse(record.stats)
    if (parsed.success) return
    for (const issue of parsed.error.issues)
      ctx.addIssue({ code: 'custom', path: ['stats', ...issue.path], message: issue.message })
  })
export type ResultRecord = z.infer<typeof ResultRecordSchema>
