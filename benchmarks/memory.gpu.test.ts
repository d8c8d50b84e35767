/**
 * Memory on 1 GPU: leak after the run (back to baseline within 100 MB once the tree is gone), growth over ESM-2
 * batches, peak per stage < 95% of capacity, OOM handling (a configuration that cannot fit), persistent models where
 * the target has the flag. GPU machine: npx vitest run --project gpu benchmarks/memory.gpu.test.ts
 */
import { expect, test } from 'vitest'
import { runMemorySuite } from '../src/suites/index.ts'
import { annotateVerdicts } from './support/annotate-record.ts'
import { useGpuSuite } from './support/run-context.ts'
import { expectJudged, expectNoFail } from './support/suite-assert.ts'

const suite = useGpuSuite(1)

test('memory on 1 GPU: no leak, peaks under capacity, OOM handled', async (context) => {
  if (suite.rc.unavailable) context.skip(suite.rc.unavailable)
  const c = suite.rc.configs
  const { record } = await runMemorySuite(suite.rc.ctx, suite.rc.measure(suite.input), {
    main: c.base([0]),
    oom: c.oom([0]),
    persistent: c.persistentModels([0]),
  })
  await annotateVerdicts(record, context.annotate)
  expectJudged(record)
  expect(record.verdicts.find((v) => v.id === 'memory/oom-handling')?.verdict).toBe('pass')
  expectNoFail(record, /^memory\/(leak|peak|esm2-slope)\//)
})
