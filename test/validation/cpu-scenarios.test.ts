// The validation scenarios that can run on the CPU: real reference-pipeline runs (tiny scale, TINY fixture) with
// planted faults; the GPU readings come from the fake NVML, scripted (they stand for the scenario, the CPU never
// touches a GPU). Asserted: the suites' verdicts and the bottleneck report, as the GPU files do at full scale.
import { describe, expect, test } from 'vitest'
import { runMemorySuite, runStageSuite } from '../../src/suites/index.ts'
import { bottleneckFlags, stageShare, topStage } from '../../src/validation/bottleneck-check.ts'
import { livePids, runEnding } from '../../src/validation/run-checks.ts'
import { verdictOf } from '../../src/validation/verdict-checks.ts'
import { cpuConfig, cpuContext, fakeGpu, GIB, scripted, tinyInput } from '../suites/support/cpu-suite.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'

const ready = await referencePipelineOnCpu()
const MIB = 2 ** 20

describe.skipIf(ready.state !== 'ready')('validation scenarios on the CPU', () => {
  test('slow-stage: the report ranks the planted stage first, with at least planted / wall of the time', async () => {
    const ctx = await cpuContext()
    const m = scripted([fakeGpu(90)], 1, 0, await tinyInput())
    const { record } = await runStageSuite(ctx, m, cpuConfig('slow', ['--inject', 'slow-stage=Consensus Scoring:3']))
    const wallMs = record.runs[0]!.run.wallMs
    expect(topStage(record)?.stage).toBe('Consensus Scoring')
    expect(stageShare(record, 'Consensus Scoring')).toBeGreaterThanOrEqual(3000 / wallMs - 0.01)
    expect(bottleneckFlags(record, 'Consensus Scoring').map((f) => f.rule)).toContain('time-share')
  })

  test('crash-at: failed, the record failed, no process of the tree alive', async () => {
    const ctx = await cpuContext()
    const m = scripted([fakeGpu(90)], 1, 0, await tinyInput())
    const { record } = await runStageSuite(
      ctx,
      m,
      cpuConfig('crash', ['--inject', 'crash-at=ESM-2 Feature Extraction']),
    )
    const ending = runEnding(record)
    expect(ending).toMatchObject({ exitClass: 'failed', exitCode: 1, survivors: 0 })
    expect(record.state).toBe('failed')
    expect(livePids(ending.pids)).toEqual([])
  })

  test('hang-at: timeout under a short limit, the record failed, no process of the tree alive', async () => {
    const ctx = await cpuContext()
    const m = { ...scripted([fakeGpu(90)], 1, 0, await tinyInput()), timeoutMs: 6_000 }
    const { record } = await runStageSuite(ctx, m, cpuConfig('hang', ['--inject', 'hang-at=ESM-2 Feature Extraction']))
    const ending = runEnding(record)
    expect(ending).toMatchObject({ exitClass: 'timeout', survivors: 0 })
    expect(record.state).toBe('failed')
    expect(livePids(ending.pids)).toEqual([])
  })

  test('oom (CPU out of memory, exit 4): classified oom and handled, nothing left running', async () => {
    const ctx = await cpuContext()
    const m = scripted([fakeGpu(90, 2 * GIB)], 1, 0, await tinyInput())
    const { record } = await runMemorySuite(ctx, m, {
      main: cpuConfig('main'),
      oom: cpuConfig('oom', ['--inject', 'oom']),
      persistent: 'n/a',
    })
    expect(verdictOf(record, 'memory/oom-handling').verdict).toBe('pass')
    const oom = runEnding({ ...record, runs: record.runs.filter((r) => r.label.startsWith('oom ')) })
    expect(oom).toMatchObject({ exitClass: 'oom', exitCode: 4, survivors: 0 })
    expect(livePids(oom.pids)).toEqual([])
  })

  test('leak: scripted device memory growing through the ESM-2 batches fails the in-run leak check', async () => {
    const ctx = await cpuContext()
    // 16 MiB more at every read from 2 GiB; small batches with a 150 ms stall give many ESM-2 batches, each apart.
    const growing = Array.from({ length: 4_000 }, (_, i) => 2 * GIB + i * 16 * MIB)
    const m = scripted([{ ...fakeGpu(90), memUsedBytes: growing }], 1, 0, await tinyInput())
    const leaky = cpuConfig('leak', ['--esm-batch-size', '64', '--inject', 'cpu-stall-ms=150'])
    const { record } = await runMemorySuite(ctx, m, { main: leaky, oom: null, persistent: 'n/a' })
    const slope = verdictOf(record, 'memory/esm2-slope/gpu0')
    expect(slope.verdict, slope.detail).toBe('fail')
    expect(slope.value).toBeGreaterThan(16)
  })
})
