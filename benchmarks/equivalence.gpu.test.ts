/**
 * Output equivalence on 1 GPU: the profile's candidate against its reference (reference pipeline: fp16 vs fp32;
 * VirNucPro: packing on vs off), one run each. GPU machine: npx vitest run --project gpu benchmarks/equivalence.gpu.test.ts
 */
import { beforeAll, expect, test } from 'vitest'
import { runEquivalenceSuite } from '../src/suites/suites.ts'
import { gpuAvailable } from './support/gpu.ts'
import { createRunContext, fixtureInput, type RunContext } from './support/run-context.ts'

let rc: RunContext
let input = ''
beforeAll(async () => {
  if (!gpuAvailable()) return
  rc = await createRunContext(1)
  input = await fixtureInput(rc.settings.preset, rc.settings.records)
})

test('candidate outputs equivalent to the reference configuration', async (context) => {
  if (rc.unavailable) context.skip(rc.unavailable)
  const [reference, candidate] = rc.configs.equivalence([0])
  const { record } = await runEquivalenceSuite(rc.ctx, rc.measure(input), reference, candidate)
  const v = record.verdicts[0]!
  expect(v.verdict, v.detail).toBe('pass')
})
