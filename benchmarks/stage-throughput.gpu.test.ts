/**
 * Per-stage throughput of the nine stages on 1 GPU (the scaling suite's 1-GPU runs, shared through the run cache), with
 * per-stage utilization, GPM, memory and energy; PERF-02 per GPU; bottleneck flags (reported, not failed).
 * GPU machine: npx vitest run --project gpu benchmarks/stage-throughput.gpu.test.ts
 */
import { expect, test } from 'vitest'
import { runStageSuite } from '../src/suites/index.ts'
import { annotateVerdicts } from './support/annotate-record.ts'
import { useGpuSuite } from './support/run-context.ts'
import { expectJudged } from './support/suite-assert.ts'

const suite = useGpuSuite(1)

test('stage throughput on 1 GPU: PERF-02 in the embedding stages', async (context) => {
  if (suite.rc.unavailable) context.skip(suite.rc.unavailable)
  const { record } = await runStageSuite(suite.rc.ctx, suite.rc.measure(suite.input), suite.rc.configs.base([0]))
  await annotateVerdicts(record, context.annotate)
  expect(record.state).toBe('completed')
  expectJudged(record)
  expect(record.verdicts.filter((v) => /^perf02\/.+\/gpu\d+$/.test(v.id)).length).toBeGreaterThan(0)
  // A stage below PERF-02 is the answer this suite exists to give (annotated above, in the reports), not a failure of
  // the suite: the reference pipeline's DNABERT-S reads 16-43% on an H200 (docs/VALIDATION.md, `clean`), and asserting
  // a pass failed the main job on every GPU run (issue 44). What must hold: every GPU stage judged (an interval that
  // straddles 80% reads inconclusive), none left in error or skipped.
  for (const v of record.verdicts.filter((x) => /^perf02\//.test(x.id)))
    expect(['pass', 'fail', 'inconclusive'], `${v.id}: ${v.verdict} ${v.detail}`).toContain(v.verdict)
})
