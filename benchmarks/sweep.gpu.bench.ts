/**
 * A parameter sweep on 1 GPU: a grid of target options (VIRNUCPRO_BENCH_SWEEP as JSON, e.g.
 * `{"--esm-batch-size":[8192,32768],"-w":[2,4]}`; default: ESM-2 token budget 8k/16k/32k), each setting measured by the
 * suite policy, reported as benchmarks, and the best setting with its CI in a `sweep` record.
 * GPU machine: npx vitest bench --project 'gpu (bench)' benchmarks/sweep.gpu.bench.ts
 */
import { expect, test } from 'vitest'
import { DEFAULT_SWEEP_GRID, expandGrid, parseSweepGrid } from '../src/engine/sweep-grid.ts'
import { runSweepSuite } from '../src/suites/index.ts'
import type { SweepStats } from '../src/suites/sweep/sweep.ts'
import { benchFromSamples } from './support/bench-samples.ts'
import { useGpuSuite } from './support/run-context.ts'

const suite = useGpuSuite(1)

test('sweep on 1 GPU: best setting with its CI', async ({ bench, annotate, skip }) => {
  if (suite.rc.unavailable) skip(suite.rc.unavailable)
  const raw = process.env.VIRNUCPRO_BENCH_SWEEP?.trim()
  const grid = raw ? parseSweepGrid(raw) : DEFAULT_SWEEP_GRID
  const settings = expandGrid(suite.rc.configs.base([0]), grid)
  const { record } = await runSweepSuite(suite.rc.ctx, suite.rc.measure(suite.input), settings)
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
