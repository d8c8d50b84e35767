/**
 * Output equivalence on 1 GPU: the profile's candidate against its reference (reference pipeline: fp16 vs fp32;
 * VirNucPro: packing on vs off), one run each. GPU machine: npx vitest run --project gpu benchmarks/equivalence.gpu.test.ts
 */
import { expect, test } from 'vitest'
import { runEquivalenceSuite } from '../src/suites/index.ts'
import { annotateVerdicts } from './support/annotate-record.ts'
import { useGpuSuite } from './support/run-context.ts'

const suite = useGpuSuite(1)

test('candidate outputs equivalent to the reference configuration', async (context) => {
  if (suite.rc.unavailable) context.skip(suite.rc.unavailable)
  const [reference, candidate] = suite.rc.configs.equivalence([0])
  const { record } = await runEquivalenceSuite(suite.rc.ctx, suite.rc.measure(suite.input), reference, candidate)
  await annotateVerdicts(record, context.annotate)
  const v = record.verdicts[0]!
  expect(v.verdict, v.detail).toBe('pass')
})
