/**
 * Scaling over 1, 2, 4, 8 GPUs (beyond the host's count: skipped with the reason). MEDIUM coding fixture; 1 warm-up +
 * 3 measured runs per configuration (VIRNUCPRO_BENCH_WARMUP / _RUNS). The 1-GPU runs are shared (run cache) with the
 * stage and memory suites. GPU machine: npx vitest run --project gpu benchmarks/scaling.gpu.test.ts
 */
import { describe, expect, test } from 'vitest'
import { measureConfiguration } from '../src/suites/measure-configuration.ts'
import { placementEntries, placementVerdict } from '../src/suites/placement.ts'
import { runScalingSuite } from '../src/suites/suites.ts'
import { annotateVerdicts } from './support/annotate-record.ts'
import { firstGpus, useGpuSuite } from './support/run-context.ts'
import { expectJudged, expectNoFail } from './support/suite-assert.ts'

const suite = useGpuSuite(1)

describe('scaling', () => {
  test('1 GPU baseline: every run completes on exactly GPU 0', async (context) => {
    if (suite.rc.unavailable) context.skip(suite.rc.unavailable)
    const m = suite.rc.measure(suite.input)
    const base = await measureConfiguration(suite.rc.configs.base([0]), {
      ...m,
      profile: suite.rc.ctx.profile,
      workDir: suite.rc.ctx.workDir,
      cacheDir: suite.rc.ctx.cacheDir,
    })
    expect(base.failure).toBeNull()
    expect(placementVerdict(placementEntries([base])).verdict).toBe('pass')
  })

  test.for([2, 4, 8])('%i GPUs against 1: speedup bands, PERF-03, balance, placement', async (n, context) => {
    if (suite.rc.unavailable) context.skip(suite.rc.unavailable)
    if (n > suite.rc.gpuCount) context.skip(`needs ${n} GPUs, this host has ${suite.rc.gpuCount}`)
    const { record } = await runScalingSuite(
      suite.rc.ctx,
      suite.rc.measure(suite.input),
      suite.rc.configs.base([0]),
      suite.rc.configs.base(firstGpus(n)),
      n,
    )
    await annotateVerdicts(record, context.annotate)
    expectJudged(record)
    expect(record.verdicts.find((v) => v.id === 'placement')?.verdict).toBe('pass')
    expectNoFail(record, /^(scaling\/\d+\/total|perf03)$/)
  })
})
