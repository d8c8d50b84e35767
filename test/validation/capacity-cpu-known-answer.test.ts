// The capacity suite's known answers on the CPU (the reference pipeline's worker processes standing in for GPUs, tiny
// models, scripted fake NVML): a start-up that grows with the input (prework-ms-per-seq before ESM-2's first batch) is
// a line with the planted slope, never a negative part. Read from wall times: alone on the machine (integration-timed).
// The sequential design's runs, whose checks hold whatever the timings: capacity-cpu-design.test.ts. The GPU version:
// benchmarks/validation/capacity (docs/VALIDATION.md).
import { describe, expect, test } from 'vitest'
import type { CapacityStats } from '../../src/capacity/analyze.ts'
import { runCapacitySuite } from '../../src/capacity/suite.ts'
import { createInputResolver } from '../../src/input/resolver.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted } from '../suites/support/cpu-suite.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const ready = await referencePipelineOnCpu()
const ESM2 = 'ESM-2 Feature Extraction'
const PREWORK_MS = 40

describe.skipIf(ready.state !== 'ready')('capacity known answers on the CPU', () => {
  test(`prework-ms-per-seq=${PREWORK_MS}: its start-up part is a line with the planted slope; no part negative; supported`, async () => {
    const ctx = await cpuContext()
    const resolver = await createInputResolver({ cacheDir: tempDirUntilFileEnd('capacity-ka-inputs-') })
    const inputs = await resolver.nested('SMALL', [8, 40])
    const { input: _input, ...m } = scripted([fakeGpu(90)], 3, 1)
    const configs = [
      {
        // Small ESM-2 batches: lines enough for its steady part at 8 records too.
        config: cpuConfig('1 worker, prework', [
          ...['--cpu-workers', '1', '--esm-batch-size', '512'],
          ...['--inject', `prework-ms-per-seq=${PREWORK_MS}`],
        ]),
        gpuCount: 1,
      },
    ]
    const { record } = await runCapacitySuite({ ...ctx, inputs: resolver }, m, configs, inputs)
    const c = (record.stats as unknown as CapacityStats).configurations[0]!
    // What was planted, per sequence-equivalent: ms per protein x the largest size's proteins per sequence.
    const run = record.runs.find((r) => !r.warmup && r.run.command?.args.includes(inputs[1]!.file))!
    const proteins = run.run.stages.find((s) => s.name === ESM2)!.extras.proteins as number
    const planted = (PREWORK_MS * proteins) / c.sizes.at(-1)!.sequences
    const pre = c.parts.find((p) => p.name === `pre: ${ESM2}`)!
    expect(pre.shape).toBe('line')
    expect(Math.abs(pre.msPerSequence.estimate / planted - 1)).toBeLessThan(0.25)
    for (const p of c.parts) expect(p.msPerSequence.estimate).toBeGreaterThanOrEqual(0)
    expect(c.support.problems).toEqual([])
    // The target's own options per stage, read from its --help: what the bottleneck report names without a study.
    const stats = record.stats as unknown as CapacityStats
    expect(stats.stageOptionsProblem).toBeNull()
    expect(stats.stageOptions?.find((s) => s.stage === ESM2)?.options.map((o) => o.flag)).toContain('--esm-batch-size')
  }, 300_000)
})
