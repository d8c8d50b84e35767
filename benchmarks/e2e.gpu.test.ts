/**
 * End to end on 1 GPU: a TYPICAL-like sample (VIRNUCPRO_BENCH_E2E_SEQUENCES, default 5,000) projected to 45,000 and
 * 6,000,000 sequences against PERF-01; throughput and utilization floors; LARGE stability (VIRNUCPRO_BENCH_LARGE_SEQUENCES,
 * 0 skips); the optimization matrix on the suite preset (VIRNUCPRO_BENCH_MATRIX=1 runs it: each switch on the path that
 * reads it, an arm whose runs do not show its switch refused with why). With VIRNUCPRO_BENCH_INPUT set,
 * each of these sizes is a nested work-stratified subset of the user's input (or all of it).
 * GPU machine: npx vitest run --project gpu benchmarks/e2e.gpu.test.ts
 */
import { beforeAll, expect, test } from 'vitest'
import { runE2eSuite } from '../src/suites/index.ts'
import { annotateVerdicts } from './support/annotate-record.ts'
import { gpuAvailable } from './support/gpu.ts'
import { createRunContext, type RunContext } from './support/run-context.ts'
import { expectJudged, expectNoFail } from './support/suite-assert.ts'

let rc: RunContext
beforeAll(async () => {
  if (!gpuAvailable()) return
  rc = await createRunContext(1)
})

test('e2e on 1 GPU: PERF-01 projections, floors, stability, optimization impact', async (context) => {
  if (rc.unavailable) context.skip(rc.unavailable)
  const s = rc.settings
  const base = rc.configs.base([0])
  const typical = {
    config: { ...base, label: `${base.label}, typical ${s.e2eSequences}` },
    input: (await rc.inputs.input('TYPICAL', s.e2eSequences)).file,
  }
  const large =
    s.largeSequences > 0
      ? {
          config: { ...base, label: `${base.label}, large ${s.largeSequences}` },
          input: (await rc.inputs.input('LARGE', s.largeSequences)).file,
        }
      : null
  const matrix = s.matrix
    ? { matrix: rc.configs.matrix([0]), input: (await rc.inputs.input(s.preset, s.records)).file }
    : null
  const { record } = await runE2eSuite(rc.ctx, rc.measure(typical.input), s.e2eRuns, { typical, large, matrix })
  await annotateVerdicts(record, context.annotate)
  expectJudged(record)
  expect(record.verdicts.find((v) => v.id === `perf01/${rc.ctx.thresholds.perf01.typicalSequences}`)?.verdict).toBe(
    'pass',
  )
  expectNoFail(record, /^e2e\/(throughput|large\/oom|large\/throttling)$/)
})
