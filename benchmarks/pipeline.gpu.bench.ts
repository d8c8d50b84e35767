/**
 * The target's total and per-stage throughput on 1 GPU as vitest benchmarks (few, long iterations: 1 warm-up + 3 runs
 * by default; samples retained), plus a `stage` result record of the same runs.
 * GPU machine: npx vitest bench --project 'gpu (bench)' benchmarks/pipeline.gpu.bench.ts
 */
import { expect, test } from 'vitest'
import { journalFor } from '../src/engine/journal-options.ts'
import { completedRuns, measureConfiguration } from '../src/engine/measure-configuration.ts'
import { writeSuiteRecord } from '../src/engine/record.ts'
import { stageDurationMs } from '../src/engine/stage-metrics.ts'
import { PIPELINE_STAGES } from '../src/pipeline/stages.ts'
import { analyzeStageThroughput } from '../src/suites/stage/stage.ts'
import { benchFromSamples } from './support/bench-samples.ts'
import { useGpuSuite } from './support/run-context.ts'

const suite = useGpuSuite(1)

test('pipeline on 1 GPU: total and per-stage', async ({ bench, annotate, skip }) => {
  if (suite.rc.unavailable) skip(suite.rc.unavailable)
  const config = suite.rc.configs.base([0])
  const m = await measureConfiguration(config, {
    ...suite.rc.measure(suite.input),
    profile: suite.rc.ctx.profile,
    workDir: suite.rc.ctx.workDir,
    journal: journalFor(suite.rc.ctx, null),
  })
  const runs = completedRuns(m)
  expect(runs.length, m.failure?.reason).toBeGreaterThan(0)
  const total = await benchFromSamples(
    bench,
    `${config.label}: end to end`,
    runs.map((o) => o.measured.run.wallMs),
  )
  for (const stage of PIPELINE_STAGES) {
    const times = runs
      .map((o) => stageDurationMs(o.measured.run, stage))
      .filter((v): v is number => v !== null && v > 0)
    if (times.length > 0) await benchFromSamples(bench, `${config.label}: ${stage}`, times)
  }
  const analysis = analyzeStageThroughput(m, suite.rc.ctx.thresholds)
  await writeSuiteRecord(suite.rc.ctx, {
    kind: 'stage',
    id: `bench-pipeline-${config.label}`,
    name: `pipeline bench, ${config.label}`,
    measurements: [m],
    stats: { ...analysis.stats },
    verdicts: analysis.verdicts,
  })
  const lines = analysis.stats.stages
    .filter((s) => s.itemsPerS)
    .map(
      (s) =>
        `${s.stage}: ${s.itemsPerS!.median.toFixed(1)} items/s${s.tokensPerS ? `, ${Math.round(s.tokensPerS.median)} tok/s` : ''}`,
    )
  await annotate(
    [`end to end mean ${(total.latency.mean / 1000).toFixed(2)} s over ${runs.length} runs`, ...lines].join('\n'),
  )
})
