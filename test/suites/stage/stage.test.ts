// Stage-throughput suite end to end on the CPU: real reference-pipeline runs (tiny scale), scripted fake NVML readings.
import { readFile } from 'node:fs/promises'
import { describe, expect, test } from 'vitest'
import { parseResultRecord } from '../../../src/results/store.ts'
import { runStageSuite } from '../../../src/suites/index.ts'
import type { StageThroughputStats } from '../../../src/suites/stage/stage.ts'
import { referencePipelineOnCpu } from '../../support/reference-pipeline.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted, tinyInput } from '../support/cpu-suite.ts'

const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')('stage throughput suite on the CPU', () => {
  test('scripted 95% utilization: a valid record, nine stages with seq/s, PERF-02 passes on the fake GPU', async () => {
    const ctx = await cpuContext()
    const m = scripted([fakeGpu(95)], 2, 0, await tinyInput())
    const { record, path } = await runStageSuite(ctx, m, cpuConfig('cpu tiny'))
    expect(parseResultRecord(await readFile(path, 'utf8'), path)).toHaveProperty('record')
    expect(record.state).toBe('completed')
    const stats = record.stats as unknown as StageThroughputStats
    expect(stats.measuredRuns).toBe(2)
    expect(stats.stages.slice(0, 9).every((s) => s.durationMs !== null)).toBe(true)
    expect(stats.stages.find((s) => s.stage === 'ESM-2 Feature Extraction')?.itemsPerS?.median).toBeGreaterThan(0)
    const perf02 = record.verdicts.filter((v) => v.id.startsWith('perf02/') && v.verdict !== 'inconclusive')
    expect(perf02.length).toBeGreaterThan(0)
    expect(perf02.every((v) => v.verdict === 'pass' && v.value === 95)).toBe(true)
  })

  test('scripted 40% utilization fails PERF-02; an injected slow stage is flagged as the bottleneck', async () => {
    const ctx = await cpuContext()
    const m = scripted([fakeGpu(40)], 1, 0, await tinyInput())
    const config = cpuConfig('cpu tiny slow merge', ['--inject', 'slow-stage=Feature Merging:2'])
    const { record } = await runStageSuite(ctx, m, config)
    const perf02 = record.verdicts.filter((v) => v.id.startsWith('perf02/') && v.verdict !== 'inconclusive')
    expect(perf02.length).toBeGreaterThan(0)
    expect(perf02.every((v) => v.verdict === 'fail')).toBe(true)
    expect(record.verdicts.find((v) => v.id === 'bottleneck/Feature Merging')?.verdict).toBe('flag')
    expect(record.verdicts.find((v) => v.id === 'bottleneck/Sequence Chunking')?.verdict).toBe('pass')
  })

  test('a crash injected at ESM-2 gives a failed record with the reason and its error line, and an error verdict', async () => {
    const ctx = await cpuContext()
    const m = scripted([fakeGpu(95)], 1, 0, await tinyInput())
    const { record } = await runStageSuite(
      ctx,
      m,
      cpuConfig('cpu crash', ['--inject', 'crash-at=ESM-2 Feature Extraction']),
    )
    expect(record.state).toBe('failed')
    // The reference pipeline's own ERROR line, after the exit code.
    expect(record.reason).toMatch(/ended as failed: exit code 1: injected crash at stage 'ESM-2 Feature Extraction'$/)
    // No measured run completed: nothing was measured, which is no verdict on throughput (not a fail).
    expect(record.verdicts.map((v) => v.verdict)).toEqual(['error'])
  })
})
