import { z } from 'zod'
import type { MonitorSummary } from '../../monitor/summary/summarize.ts'
import { type Assignable, typesAgree } from './type-checks.ts'

// The monitor's summary (src/monitor/summary/summarize.ts) is stored as is. Its schema checks the parts every report
// reads (windows, per-GPU metric statistics, energy, flags) and lets the rest through, so a richer summary from a newer
// monitor still loads; the compile-time check below keeps these fields in step with the monitor's type.

const MetricStatsSchema = z.object({
  n: z.number(),
  mean: z.number(),
  min: z.number(),
  max: z.number(),
  p50: z.number(),
  p95: z.number(),
})

const GpuWindowStatsSchema = z.looseObject({
  gpu: z.number().int(),
  sampleCount: z.number().int(),
  metrics: z.record(z.string(), MetricStatsSchema.nullable()),
  peakMemUsedBytes: z.number().nullable(),
  energyJ: z.number().nullable(),
  energyFromPowerJ: z.number().nullable(),
  /** Absent in records written before the monitor kept it (a refit reads it from their gpu.jsonl). */
  busySpanMs: z.number().nullable().optional(),
})

const StageSummarySchema = z.looseObject({
  stage: z.string().nullable(),
  windows: z.array(z.object({ startMs: z.number(), endMs: z.number() }).loose()),
  durationMs: z.number(),
  gpus: z.array(GpuWindowStatsSchema),
  excludedGpus: z.array(GpuWindowStatsSchema),
  energyJ: z.number().nullable(),
  jPerSequence: z.number().nullable(),
  throttledSamples: z.number().int(),
})

const HostMemorySummarySchema = z.looseObject({
  hostMemTotalBytes: z.number(),
  readings: z.number().int(),
  peakTreeBytes: z.number(),
  peakTreeAtMs: z.number(),
  peakTreeStage: z.string().nullable(),
  peakTreeFromPss: z.boolean(),
  peakProcessBytes: z.number(),
  peakProcess: z.looseObject({ pid: z.number().int(), comm: z.string().nullable(), role: z.string() }).nullable(),
  roles: z.array(
    z.looseObject({
      role: z.string(),
      processes: z.number().int(),
      peakProcessBytes: z.number(),
      peakTotalBytes: z.number(),
    }),
  ),
})

const MonitorSummaryShape = z.looseObject({
  version: z.literal(1),
  logPath: z.string().nullable(),
  startedAt: z.string(),
  intervalMs: z.number(),
  durationMs: z.number(),
  sampledGpus: z.array(z.number().int()),
  requestedGpus: z.array(z.number().int()),
  gpus: z.array(GpuWindowStatsSchema),
  stages: z.array(StageSummarySchema),
  energy: z.looseObject({
    totalJ: z.number().nullable(),
    fromPowerJ: z.number().nullable(),
    sequenceCount: z.number().nullable(),
    jPerSequence: z.number().nullable(),
  }),
  attribution: z.looseObject({ state: z.string() }),
  flags: z.looseObject({
    throttled: z.array(z.object({ gpu: z.number(), stage: z.string().nullable(), samples: z.number() })),
    lostGpus: z.array(z.number()),
    unexpectedGpus: z.array(z.number()),
    idleRequestedGpus: z.array(z.number()),
    foreignProcesses: z.number(),
  }),
  /** Absent in records written before the monitor sampled host memory. */
  hostMemory: HostMemorySummarySchema.nullable().optional(),
})

/** Validated fields, typed as the monitor's own MonitorSummary. */
export const MonitorSummarySchema = MonitorSummaryShape.transform((summary) => summary as unknown as MonitorSummary)

// Loose objects carry an index signature, which TypeScript interfaces never satisfy; compare the declared keys only.
type DeclaredKeys<T> = T extends readonly (infer U)[]
  ? DeclaredKeys<U>[]
  : T extends object
    ? { [K in keyof T as string extends K ? never : K]: DeclaredKeys<T[K]> }
    : T
typesAgree<Assignable<MonitorSummary, DeclaredKeys<z.input<typeof MonitorSummaryShape>>>>(true)
