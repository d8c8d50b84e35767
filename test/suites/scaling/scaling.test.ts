// Scaling suite end to end on the CPU: the reference pipeline's multi-process path (--cpu-workers) stands in for GPUs;
// the fake NVML is scripted (the CPU runs use no GPU, so placement is skipped: nothing asked for specific GPUs).
import { describe, expect, test } from 'vitest'
import { runScalingSuite } from '../../../src/suites/index.ts'
import type { ScalingStats } from '../../../src/suites/scaling/scaling.ts'
import { referencePipelineOnCpu } from '../../support/reference-pipeline.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted, tinyInput } from '../support/cpu-suite.ts'

const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')('scaling suite on the CPU', () => {
  test('1 vs 2 workers, 3 runs a side: speedups with CIs for the total and stages, balance, placement skipped', async () => {
    const ctx = await cpuContext()
    const m = scripted([fakeGpu(90), fakeGpu(90)], 3, 0, await tinyInput())
    const single = cpuConfig('1 worker', ['--cpu-workers', '1'])
    const multi = cpuConfig('2 workers', ['--cpu-workers', '2'])
    const { record } = await runScalingSuite(ctx, m, single, multi, 2)
    const stats = record.stats as unknown as ScalingStats
    expect(stats.total?.singleGpu.n).toBe(3)
    expect(stats.total?.speedup.ci).not.toBeNull()
    const total = record.verdicts.find((v) => v.id === 'scaling/2/total')!
    expect(total.ci!.low).toBeLessThanOrEqual(total.value!)
    // Two worker processes on a tiny input cannot reach 1.6x on two shared cores: the band verdict must not pass.
    expect(['fail', 'inconclusive']).toContain(total.verdict)
    expect(record.verdicts.find((v) => v.id === 'perf03')).toBeDefined()
    expect(record.verdicts.find((v) => v.id === 'placement')?.verdict).toBe('skipped')
    expect(record.runs).toHaveLength(6)
  }, 120_000)
})
