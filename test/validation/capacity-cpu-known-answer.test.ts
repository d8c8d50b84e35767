// The capacity suite's known answers on the CPU (the reference pipeline's worker processes standing in for GPUs, tiny
// models, scripted fake NVML): a start-up that grows with the input (prework-ms-per-seq before ESM-2's first batch) is
// a line with the planted slope, never a negative part; and the sequential design adds runs at the largest size within
// its budget, each one in the record. The GPU version: benchmarks/validation/capacity (docs/VALIDATION.md).
import { describe, expect, test } from 'vitest'
import type { CapacityStats } from '../../src/suites/capacity.ts'
import { measureCapacity, runCapacitySuite, writeCapacityRecord } from '../../src/suites/capacity-suite.ts'
import { createInputResolver } from '../../src/suites/input.ts'
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
  }, 300_000)

  test('the sequential design: top-up runs at the largest size within the budget, kept in the record, said why it stopped', async () => {
    const ctx = await cpuContext()
    const resolver = await createInputResolver({ cacheDir: tempDirUntilFileEnd('capacity-seq-inputs-') })
    const inputs = await resolver.nested('SMALL', [8, 40])
    const { input: _input, ...m } = scripted([fakeGpu(90)], 2, 0)
    const configs = [{ config: cpuConfig('1 worker', ['--cpu-workers', '1', '--esm-batch-size', '512']), gpuCount: 1 }]
    const planned = await measureCapacity({ ...ctx, inputs: resolver }, m, configs, inputs)
    const spentMs = planned
      .flatMap((c) => c.bySize.flatMap((s) => s.observations))
      .reduce((a, o) => a + o.measured.run.wallMs, 0)
    const oneRunMs = Math.max(...planned[0]!.bySize[1]!.observations.map((o) => o.measured.run.wallMs))
    // Room for about two more runs of the largest size: the planned ones come back from the run cache.
    const budget = (spentMs + 2.5 * oneRunMs) / 60_000
    const measured = await measureCapacity({ ...ctx, inputs: resolver }, m, configs, inputs, budget)
    const state = measured.sequential!
    expect(['budget', 'targets-reached']).toContain(state.stop)
    expect(state.gpuMinutes).toBeLessThanOrEqual(budget)
    const largest = measured[0]!.bySize[1]!
    expect(largest.observations.length).toBe(2 + state.topUps)
    const labels = largest.observations.map((o) => o.measured.label)
    for (let k = 1; k <= state.topUps; k++) expect(labels).toContain(`1 worker, 40 seqs top-up ${k} run 1`)
    const { record } = await writeCapacityRecord({ ...ctx, inputs: resolver }, measured, inputs, '', [], [], state)
    expect((record.stats as unknown as CapacityStats).sequential).toMatchObject({
      stop: state.stop,
      topUps: state.topUps,
    })
  }, 300_000)
})
