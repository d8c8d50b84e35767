import { z } from 'zod'

const GitStateSchema = z.object({ commit: z.string(), dirty: z.boolean() })

/** The input a record's runs read (src/input/resolver.ts): the source's identity and each file of it that was used. */
const InputProvenanceSchema = z.object({
  source: z.object({
    source: z.enum(['user', 'generated']),
    path: z.string(),
    files: z.array(z.string()),
    sha256: z.string(),
    records: z.number().int(),
    bases: z.number(),
    workPerRecord: z.number(),
    chunkLength: z.number().int(),
    preset: z.string().nullable(),
  }),
  used: z.array(
    z.object({
      file: z.string(),
      records: z.number().int(),
      kind: z.enum(['full', 'subset', 'superset']),
      workRelativeDifference: z.number(),
    }),
  ),
})

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
  /** Absent in records written before inputs were resolved; null when no resolver handed out the runs' input. */
  input: InputProvenanceSchema.nullable().optional(),
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
