/**
 * The fleet as summary.json holds it: the analysis object as it is (fleet.ts), held to this schema so a consumer (a
 * dashboard, the Slurm campaign's own check) can rely on the fields it reads: per host the PERF verdicts and
 * projections, per measurement and host the rates and the bad-node verdict, per sharded run the fleet figures, the
 * straggler and the N-vs-1 comparison (a `no-verdict` state when one side was not measured).
 */
import { z } from 'zod'
import { VERDICTS } from '../../results/schema/index.ts'

const range = z.object({ low: z.number(), high: z.number() }).nullable()
const figure = z.looseObject({ value: z.number(), ci: range })
const verdict = z.enum(VERDICTS)
const perf = z.object({ worst: verdict, counts: z.record(z.string(), z.number().int()) }).nullable()

const comparison = z.union([
  z.looseObject({
    state: z.literal('judged'),
    method: z.enum(['measured', 'projected']),
    nodes: z.number().int(),
    oneNodeMs: figure,
    fleetMs: figure,
    speedup: figure,
    efficiency: figure,
    verdict,
    detail: z.string(),
  }),
  z.object({ state: z.literal('no-verdict'), reason: z.string() }),
])

export const FleetJsonSchema = z
  .object({
    sources: z.array(
      z.object({
        dir: z.string(),
        runIds: z.array(z.string()),
        records: z.number().int(),
        invalid: z.number().int(),
        duplicates: z.number().int(),
        problem: z.string().nullable(),
      }),
    ),
    hosts: z.array(
      z.looseObject({
        host: z.string(),
        gpuModel: z.string(),
        perf01: perf,
        perf02: perf,
        perf03: perf,
        projections: z.array(
          z.looseObject({
            label: z.string(),
            sequences: z.number(),
            wallMs: figure.nullable(),
            perf01: verdict.nullable(),
          }),
        ),
        badNodeIn: z.array(z.string()),
      }),
    ),
    comparison: z.object({
      hosts: z.array(
        z.looseObject({
          measurement: z.string(),
          host: z.string(),
          gpuModel: z.string(),
          runs: z.number().int(),
          sequencesPerS: figure.nullable(),
          tokensPerS: figure.nullable(),
          jPerSequence: figure.nullable(),
          badNode: z.object({
            verdict: z.enum(['pass', 'flag', 'inconclusive']),
            direction: z.enum(['slower', 'faster']).nullable(),
            reason: z.string(),
          }),
        }),
      ),
      models: z.array(
        z.looseObject({
          measurement: z.string(),
          gpuModel: z.string(),
          hosts: z.number().int(),
          badNodes: z.array(z.string()),
        }),
      ),
      singleHost: z.array(z.string()),
    }),
    shardRuns: z.array(
      z.looseObject({
        runId: z.string(),
        count: z.number().int(),
        shards: z.array(z.looseObject({ index: z.number().int(), host: z.string(), state: z.string() })),
        missing: z.array(z.number().int()),
        incomplete: z.string().nullable(),
        fleet: z
          .looseObject({
            wallMs: figure,
            sequences: z.number(),
            sequencesPerS: figure,
            jPerSequence: figure.nullable(),
          })
          .nullable(),
        straggler: z.looseObject({ index: z.number().int(), host: z.string(), ratio: z.number() }).nullable(),
        vsOneNode: comparison,
        vsOneNodeProjected: comparison.nullable(),
      }),
    ),
    notes: z.array(z.string()),
  })
  .nullable()
