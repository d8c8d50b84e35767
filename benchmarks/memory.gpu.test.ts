/**
 * Memory on 1 GPU: leak after the run (back to baseline within 100 MB once the tree is gone), growth over ESM-2
 * batches, peak per stage < 95% of capacity, OOM handling (a configuration that cannot fit), persistent models where
 * the target has the flag. GPU machine: npx vitest run --project gpu benchmarks/memory.gpu.test.ts
 */
import { beforeAll, expect, test } from 'vitest'
import { runMemorySuite } from '../src/suites/suites.ts'
import { gpuAvailable } from './support/gpu.ts'
import { createRunContext, fixtureInput, type RunContext } from './support/run-context.ts'
import { expectJudged, expectNoFail } from './support/suite-assert.ts'

let rc: RunContext
let input = ''
beforeAll(async () => {
  if (!gpuAvailable()) return
  rc = await createRunContext(1)
  input = await fixtureInput(rc.settings.preset, rc.settings.records)
})

test('memory on 1 GPU: no leak, peaks under capacity, OOM handled', async (context) => {
  if (rc.unavailable) context.skip(rc.unavailable)
  const c = rc.configs
  const { record } = await runMemorySuite(rc.ctx, rc.measure(input), {
    main: c.base([0]),
    oom: c.oom([0]),
    persistent: c.persistentModels([0]),
  })
  expectJudged(record)
  expect(record.verdicts.find((v) => v.id === 'memory/oom-handling')?.verdict).toBe('pass')
  expectNoFail(record, /^memory\/(leak|peak|esm2-slope)\//)
})
