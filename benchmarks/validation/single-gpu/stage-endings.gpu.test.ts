/**
 * Validation on 1 GPU, full scale: a planted slow stage (the bottleneck report must name it with its share), a crash
 * and a hang at the ESM-2 stage (classified failed and timeout, no process left). One run each, no warm-up; the hang
 * runs under a 20 s timeout. GPU machine: VIRNUCPRO_BENCH_VALIDATION=1 npx vitest run --project gpu benchmarks/validation/single-gpu
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { runStageSuite } from '../../../src/suites/index.ts'
import { bottleneckFlags, stageShare, topStage } from '../../../src/validation/bottleneck-check.ts'
import { describeEnding, livePids, runEnding } from '../../../src/validation/run-checks.ts'
import { faultConfig, PLANTED, scenario } from '../../../src/validation/scenarios.ts'
import { gpuAvailable } from '../../support/gpu.ts'
import { validationAsked } from '../../support/main-job.ts'
import { createRunContext, type RunContext } from '../../support/run-context.ts'
import { mediumInput, once } from '../support.ts'

let rc: RunContext
beforeAll(async () => {
  if (!gpuAvailable() || !validationAsked()) return
  rc = await createRunContext(1)
})

const config = (id: string) => faultConfig(rc.configs.base([0]), scenario(id))
const input = (id: string) => mediumInput(scenario(id).records)

describe('validation, 1 GPU: slow stage, crash, hang', () => {
  test('slow-stage: the bottleneck report names that stage with its time share', async ({ skip, annotate }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const { record } = await runStageSuite(rc.ctx, once(rc, await input('slow-stage')), config('slow-stage'))
    expect(runEnding(record).exitClass).toBe('completed')
    const top = topStage(record)
    expect(top?.stage).toBe(PLANTED.slowStage)
    const share = stageShare(record, PLANTED.slowStage)!
    const wallMs = record.runs.find((r) => !r.warmup)!.run.wallMs
    // The stage holds at least the planted seconds: its share is at least planted / wall.
    expect(share).toBeGreaterThanOrEqual((PLANTED.slowStageS * 1000) / wallMs - 0.01)
    const flags = bottleneckFlags(record, PLANTED.slowStage).filter((f) => f.rule === 'time-share')
    expect(flags.length, 'time-share flag on the slow stage').toBe(1)
    await annotate(
      `validation slow-stage=${PLANTED.slowStage}:${PLANTED.slowStageS}: report ranks ${top?.stage} first at ${(share * 100).toFixed(1)}% of ${(wallMs / 1000).toFixed(1)} s; ${flags[0]?.evidence}`,
    )
  })

  test('crash-at: classified failed, the record says so, no process survives', async ({ skip, annotate }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const { record } = await runStageSuite(rc.ctx, once(rc, await input('crash-at')), config('crash-at'))
    const ending = runEnding(record)
    const alive = livePids(ending.pids)
    expect(ending.exitClass).toBe('failed')
    expect(record.state).toBe('failed')
    expect(ending.survivors).toBe(0)
    expect(alive).toEqual([])
    await annotate(`validation crash-at: record ${record.state} (${record.reason}); ${describeEnding(ending, alive)}`)
  })

  test('hang-at: classified timeout, the record says so, no process survives', async ({ skip, annotate }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const m = once(rc, await input('hang-at'), undefined, PLANTED.hangTimeoutMs)
    const { record } = await runStageSuite(rc.ctx, m, config('hang-at'))
    const ending = runEnding(record)
    const alive = livePids(ending.pids)
    expect(ending.exitClass).toBe('timeout')
    expect(record.state).toBe('failed')
    expect(ending.survivors).toBe(0)
    expect(ending.gpuCheck).toBe('clean')
    expect(alive).toEqual([])
    await annotate(`validation hang-at: record ${record.state} (${record.reason}); ${describeEnding(ending, alive)}`)
  })
})
