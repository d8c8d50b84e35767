// Memory suite end to end on the CPU: real runs (tiny scale, a real injected OOM), scripted fake NVML memory readings.
import { describe, expect, test } from 'vitest'
import { runMemorySuite } from '../../../src/suites/index.ts'
import type { MemoryStats } from '../../../src/suites/memory/memory.ts'
import { referencePipelineOnCpu } from '../../support/reference-pipeline.ts'
import { cpuConfig, cpuContext, fakeGpu, GIB, scripted, tinyInput } from '../support/cpu-suite.ts'

const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')('memory suite on the CPU', () => {
  test('steady scripted memory: no leak, peaks under capacity, the injected OOM is handled, persistent models skipped', async () => {
    const ctx = await cpuContext()
    const m = scripted([fakeGpu(90, 2 * GIB)], 1, 0, await tinyInput())
    const { record } = await runMemorySuite(ctx, m, {
      main: cpuConfig('cpu tiny'),
      oom: cpuConfig('cpu oom', ['--inject', 'oom']),
      persistent: 'the reference pipeline has no --persistent-models flag',
    })
    const byId = (id: string) => record.verdicts.find((v) => v.id === id)
    expect(record.state).toBe('completed')
    expect(byId('memory/leak/gpu0')).toMatchObject({ verdict: 'pass', value: 0 })
    expect(byId('memory/peak/ESM-2 Feature Extraction/gpu0')?.verdict).toBe('pass')
    expect(byId('memory/oom-handling')?.verdict).toBe('pass')
    expect(byId('memory/persistent-models')?.verdict).toBe('skipped')
    const stats = record.stats as unknown as MemoryStats
    expect(stats.oom).toMatchObject({ exitClass: 'oom', survivors: 0, handled: true })
  })

  test('scripted memory at 97.5% of capacity fails the peak rule', async () => {
    const ctx = await cpuContext()
    const m = scripted([fakeGpu(90, 78 * GIB, 80 * GIB)], 1, 0, await tinyInput())
    const { record } = await runMemorySuite(ctx, m, { main: cpuConfig('cpu tiny'), oom: null, persistent: 'n/a' })
    const peak = record.verdicts.find((v) => v.id === 'memory/peak/ESM-2 Feature Extraction/gpu0')
    expect(peak).toMatchObject({ verdict: 'fail', value: 97.5 })
    expect(record.verdicts.find((v) => v.id === 'memory/oom-handling')?.verdict).toBe('skipped')
  })
})
