/**
 * A parameter sweep on 1 GPU: a grid of target options (VIRNUCPRO_BENCH_SWEEP as JSON, e.g.
 * `{"--esm-batch-size":[8192,32768],"-w":[2,4]}`; default: ESM-2 token budget 8k/16k/32k), each setting measured by the
 * suite policy, reported as benchmarks, and the best setting with its CI in a `sweep` record.
 * GPU machine: npx vitest bench --project 'gpu (bench)' benchmarks/sweep.gpu.bench.ts
 */
import { beforeAll, expect, test } from 'vitest'
import { runSweepSuite } from '../src/suites/suites.ts'
import type { SweepStats } from '../src/suites/sweep.ts'
import { DEFAULT_SWEEP_GRID, expandGrid, parseSweepGrid } from '../src/suites/sweep-grid.ts'
import { benchFromSamples } from './support/bench-samples.ts'
import { gpuAvailable } from './support/gpu.ts'
import { createRunContext, fixtureInput, type RunContext } from './support/run-context.ts'

let rc: RunContext
let input = ''
beforeAll(async () => {
  if (!gpuAvailable()) return
  rc = await createRunContext(1)
  input = await fixtureInput(rc.settings.preset, rc.settings.records)
})

test('sweep on 1 GPU: best setting with its CI', async ({ bench, annotate, skip }) => {
  if (rc.unavailable) skip(rc.unavailable)
  const raw = process.env.VIRNUCPRO_BENCH_SWEEP?.trim()
  const grid = raw ? parseSweepGrid(raw) : DEFAULT_SWEEP_GRID
  const settings = expandGrid(rc.configs.base([0]), grid)
  const { record } = await runSweepSuite(rc.ctx, rc.measure(input), settings)
  const stats = record.stats as unknown as SweepStats
  for (const setting of settings) {
    const times = record.runs
      .filter((r) => !r.warmup && r.run.exitClass === 'completed' && r.label.startsWith(`${setting.label} run`))
      .map((r) => r.run.wallMs)
    if (times.length > 0) await benchFromSamples(bench, setting.label, times)
  }
  expect(stats.best, record.verdicts[0]?.detail).not.toBeNull()
  await annotate(`sweep: ${record.verdicts[0]?.detail}`)
})
