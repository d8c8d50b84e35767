/**
 * A/B of any two configurations, interleaved (A B A B ...), on 1 GPU: VIRNUCPRO_BENCH_AB as JSON
 * `{"a": {"label": "v1", "extraArgs": [...], "env": {...}}, "b": {...}}` (defaults: the profile's base vs its
 * equivalence candidate, i.e. fp32 vs fp16 on the reference pipeline). 4 measured runs a side (the regression rule's
 * minimum), no warm-up beyond the policy's. GPU machine: npx vitest bench --project 'gpu (bench)' benchmarks/ab.gpu.bench.ts
 */
import { expect, test } from 'vitest'
import { type AbArms, parseAbArms } from '../src/config/ab-arms.ts'
import type { Configuration } from '../src/engine/configuration.ts'
import { runAbSuite } from '../src/suites/index.ts'
import { benchFromSamples } from './support/bench-samples.ts'
import { useGpuSuite } from './support/run-context.ts'

const suite = useGpuSuite(1)

function arms(): [Configuration, Configuration] {
  const raw = process.env.VIRNUCPRO_BENCH_AB?.trim()
  if (!raw) return suite.rc.configs.equivalence([0])
  // Checked by the gpu project's global setup before any run (src/config/variables.ts); parsed here the same way.
  const parsed = parseAbArms(raw)
  const base = suite.rc.configs.base([0])
  const make = (arm: AbArms['a']): Configuration => ({
    ...base,
    label: arm.label,
    extraArgs: [...(base.extraArgs ?? []), ...arm.extraArgs],
    env: { ...base.env, ...arm.env },
  })
  return [make(parsed.a), make(parsed.b)]
}

test('A/B interleaved on 1 GPU', async ({ bench, annotate, skip }) => {
  if (suite.rc.unavailable) skip(suite.rc.unavailable)
  const [a, b] = arms()
  const m = suite.rc.measure(suite.input)
  const policy = { ...m.policy!, minRuns: Math.max(4, m.policy!.minRuns), maxRuns: Math.max(4, m.policy!.maxRuns) }
  const { record } = await runAbSuite(suite.rc.ctx, { ...m, policy }, a, b)
  for (const arm of [a, b]) {
    const times = record.runs
      .filter((r) => !r.warmup && r.run.exitClass === 'completed' && r.label.startsWith(`${arm.label} run`))
      .map((r) => r.run.wallMs)
    if (times.length > 0) await benchFromSamples(bench, arm.label, times)
  }
  const v = record.verdicts[0]!
  expect(v.verdict, v.detail).not.toBe('fail')
  await annotate(`A/B ${v.title}: ${v.detail}`)
})
