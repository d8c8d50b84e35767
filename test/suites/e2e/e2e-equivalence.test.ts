// E2E and equivalence suites end to end on the CPU: real runs at tiny scale, scripted fake NVML readings.
import { describe, expect, test } from 'vitest'
import type { E2eStats } from '../../../src/suites/e2e/e2e.ts'
import { runE2eSuite, runEquivalenceSuite } from '../../../src/suites/index.ts'
import { referencePipelineOnCpu } from '../../support/reference-pipeline.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted, tinyInput } from '../support/cpu-suite.ts'

const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')('e2e and equivalence suites on the CPU', () => {
  test('e2e: projection to 45,000 and 6,000,000 with CIs, throughput and utilization floors, large-sample stability', async () => {
    const ctx = await cpuContext()
    const input = await tinyInput(30)
    const m = scripted([fakeGpu(85)], 1, 0, input)
    // A small ESM-2 token budget gives enough batch lines to fit the steady rate on a tiny input.
    const config = cpuConfig('cpu tiny', ['--esm-batch-size', '256'])
    const { record } = await runE2eSuite(ctx, m, 1, {
      typical: { config, input },
      large: { config: cpuConfig('cpu tiny large', ['--esm-batch-size', '256']), input: await tinyInput(40) },
      matrix: null,
    })
    const stats = record.stats as unknown as E2eStats
    expect(stats.typical.projection.state).toBe('projected')
    for (const n of [45_000, 6_000_000]) {
      const v = record.verdicts.find((x) => x.id === `perf01/${n}`)
      expect(v?.ci?.low).toBeLessThanOrEqual(v!.value!)
      expect(v?.ci?.high).toBeGreaterThanOrEqual(v!.value!)
      expect(['pass', 'fail', 'inconclusive']).toContain(v?.verdict)
    }
    expect(record.verdicts.find((x) => x.id === 'e2e/utilization')).toMatchObject({ verdict: 'pass', value: 85 })
    expect(record.verdicts.find((x) => x.id === 'e2e/large/oom')?.verdict).toBe('pass')
    expect(record.verdicts.find((x) => x.id === 'e2e/matrix')?.verdict).toBe('skipped')
  })

  test('equivalence: another token budget gives the same predictions; other weights (a fault) do not', async () => {
    const ctx = await cpuContext()
    const m = scripted([fakeGpu(85)], 1, 0, await tinyInput())
    const same = await runEquivalenceSuite(
      ctx,
      m,
      cpuConfig('budget 32k'),
      cpuConfig('budget 512', ['--esm-batch-size', '512']),
    )
    expect(same.record.verdicts[0]).toMatchObject({ verdict: 'pass', value: 100 })
    const other = await runEquivalenceSuite(ctx, m, cpuConfig('budget 32k'), cpuConfig('seed 7', ['--seed', '7']))
    expect(other.record.verdicts[0]?.verdict).toBe('fail')
  })
})
