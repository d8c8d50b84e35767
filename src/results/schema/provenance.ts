import { z } from 'zod'

const GitStateSchema = z.object({ commit: z.string(), dirty: z.boolean() })

/** Where a measurement came from: enough to tell two records apart and to rerun one. */
export const ProvenanceSchema = z.object({
  runId: z.string().min(1),
  suite: z.object({ name: z.literal('virnucpro-bench'), version: z.string(), git: GitStateSchema.nullable() }),
  target: z.object({
    profile: z.string(),
    dir: z.string().nullable(),
    git: GitStateSchema.nullable(),
    /** Versions the target reported (torch, CUDA, ...), where it did. */
    versions: z.record(z.string(), z.string()),
  }),
  host: z.object({
    hostname: z.string(),
    platform: z.string(),
    arch: z.string(),
    cpus: z.number().int(),
    memBytes: z.number(),
  }),
  node: z.string(),
  nvml: z.union([
    z.object({
      available: z.literal(true),
      driverVersion: z.string(),
      nvmlVersion: z.string(),
      gpus: z.array(
        z.object({
          index: z.number().int(),
          name: z.string(),
          uuid: z.string(),
          pciBusId: z.string(),
          memTotalBytes: z.number(),
        }),
      ),
    }),
    z.object({ available: z.literal(false), reason: z.string() }),
  ]),
})
export type Provenance = z.infer<typeof ProvenanceSchema>
