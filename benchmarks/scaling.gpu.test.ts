/**
 * Scaling over 1, 2, 4, 8 GPUs (beyond the host's count: skipped with the reason). MEDIUM coding fixture; 1 warm-up +
 * 3 measured runs per configuration (VIRNUCPRO_BENCH_WARMUP / _RUNS). The 1-GPU runs are shared (run cache) with the
 * stage and memory suites. GPU machine: npx vitest run --project gpu benchmarks/scaling.gpu.test.ts
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { measureConfiguration } from '../src/suites/measure-configuration.ts'
import { placementEntries, placementVerdict } from '../src/suites/placement.ts'
import { runScalingSuite } from '../src/suites/suites.ts'
import { gpuAvailable } from './support/gpu.ts'
import { createRunContext, firstGpus, fixtureInput, type RunContext } from './support/run-context.ts'
import { expectJudged, expectNoFail } from './support/suite-assert.ts'

let rc: RunContext
let input = ''
beforeAll(async () => {
  if (!gpuAvailable()) return
  rc = await createRunContext(1)
  input = await fixtureInput(rc.settings.preset, rc.settings.records)
})

describe('scaling', () => {
  test('1 GPU baseline: every run completes on exactly GPU 0', async (context) => {
    if (rc.unavailable) context.skip(rc.unavailable)
    const m = rc.measure(input)
    const base = await measureConfiguration(rc.configs.base([0]), {
      ...m,
      profile: rc.ctx.profile,
      workDir: rc.ctx.workDir,
      cacheDir: rc.ctx.cacheDir,
    })
    expect(base.failure).toBeNull()
    expect(placementVerdict(placementEntries([base])).verdict).toBe('pass')
  })

  test.for([2, 4, 8])('%i GPUs against 1: speedup bands, PERF-03, balance, placement', async (n, context) => {
    if (rc.unavailable) context.skip(rc.unavailable)
    if (n > rc.gpuCount) context.skip(`needs ${n} GPUs, this host has ${rc.gpuCount}`)
    const { record } = await runScalingSuite(
      rc.ctx,
      rc.measure(input),
      rc.configs.base([0]),
      rc.configs.base(firstGpus(n)),
      n,
    )
    expectJudged(record)
    expect(record.verdicts.find((v) => v.id === 'placement')?.verdict).toBe('pass')
    expectNoFail(record, /^(scaling\/\d+\/total|perf03)$/)
  })
})
