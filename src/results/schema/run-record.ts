import { z } from 'zod'
import type { RunRecord } from '../../pipeline/run-record.ts'
import { type MutuallyAssignable, typesAgree } from './type-checks.ts'

// The runner's RunRecord (src/pipeline/run-record.ts) as a schema, so a record read back from disk is checked field by
// field before any report trusts it.

const extraValue = z.union([z.number(), z.string()])

const CommandSchema = z.object({
  file: z.string(),
  args: z.array(z.string()),
  cwd: z.string().optional(),
  env: z.record(z.string(), z.string()),
})

const StageSpanSchema = z.object({
  index: z.number().int().nullable(),
  name: z.string(),
  startMs: z.number().nullable(),
  endMs: z.number().nullable(),
  receivedDurationMs: z.number().nullable(),
  logDurationS: z.number().nullable(),
  summaryDurationS: z.number().nullable(),
  skippedReason: z.string().nullable(),
  extras: z.record(z.string(), extraValue),
})

const SummaryBlockSchema = z.object({
  totalWallS: z.number(),
  totalWallHms: z.string(),
  stages: z.array(
    z.object({
      index: z.number().int(),
      name: z.string(),
      durationS: z.number().nullable(),
      percent: z.number().nullable(),
    }),
  ),
  bottlenecks: z.array(z.object({ name: z.string(), percent: z.number() })),
  metrics: z.record(z.string(), extraValue),
  sequencesProcessed: z.number().nullable(),
})

const OutputsSchema = z.discriminatedUnion('state', [
  z.object({
    state: z.literal('found'),
    dir: z.string(),
    predictions: z.object({ path: z.string(), rows: z.number(), virus: z.number(), others: z.number() }),
    highestScores: z.object({ path: z.string(), rows: z.number(), virus: z.number() }),
  }),
  z.object({ state: z.literal('missing'), dir: z.string(), reason: z.string() }),
  z.object({ state: z.literal('malformed'), dir: z.string(), reason: z.string() }),
  z.object({ state: z.literal('not-read'), reason: z.string() }),
])

const GpuCheckSchema = z.union([
  z.literal('not-run'),
  z.object({ state: z.literal('clean') }),
  z.object({
    state: z.literal('held'),
    holders: z.array(z.object({ pid: z.number(), memUsedBytes: z.number(), gpu: z.number() })),
  }),
  z.object({ state: z.literal('error'), error: z.string() }),
])

const CleanupSchema = z.object({
  signalsSent: z.array(z.enum(['SIGTERM', 'SIGKILL'])),
  escapees: z.array(z.number()),
  survivors: z.array(z.object({ pid: z.number(), comm: z.string() })),
  gpuCheck: GpuCheckSchema,
})

export const EXIT_CLASSES = ['completed', 'partial', 'oom', 'failed', 'timeout', 'signal'] as const

export const RunRecordSchema = z.object({
  profile: z.string(),
  command: CommandSchema.nullable(),
  exitClass: z.enum(EXIT_CLASSES),
  reason: z.string().nullable(),
  exitCode: z.number().int().nullable(),
  signal: z.string().nullable(),
  startedAt: z.string(),
  wallMs: z.number().nonnegative(),
  stages: z.array(StageSpanSchema),
  stageMismatches: z.array(
    z.object({
      name: z.string(),
      logDurationS: z.number().nullable(),
      summaryDurationS: z.number().nullable(),
      diffS: z.number().nullable(),
    }),
  ),
  summary: SummaryBlockSchema.nullable(),
  sawOom: z.boolean(),
  outputs: OutputsSchema,
  logPath: z.string().nullable(),
  logTail: z.array(z.string()),
  logReadErrors: z
    .object({
      total: z.number().int().nonnegative(),
      first: z.array(
        z.object({ atMs: z.number(), stream: z.enum(['stdout', 'stderr']), line: z.string(), reason: z.string() }),
      ),
    })
    .optional(),
  architecture: z.object({ architecture: z.string(), line: z.string() }).nullable().optional(),
  gpusRequested: z.array(z.number().int()).nullable(),
  gpusUsed: z.array(z.number().int()).nullable(),
  gpuMismatch: z.boolean().nullable(),
  pids: z.array(z.number().int()),
  cleanup: CleanupSchema.nullable(),
})

typesAgree<MutuallyAssignable<z.infer<typeof RunRecordSchema>, RunRecord>>(true)
