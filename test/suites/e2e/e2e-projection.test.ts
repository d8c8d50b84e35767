/**
 * The e2e projection replayed on real H200 runs (test/fixtures/h200-runs, see support/h200-runs.ts). "Measured" is
 * the runner's process wall time, spawn to exit (RunRecord.wallMs), which includes ~3-4.5 s of Python start-up.
 */
import { describe, expect, test } from 'vitest'
import { completedRuns, measureConfiguration } from '../../../src/engine/measure-configuration.ts'
import type { RunObservation } from '../../../src/engine/observe-run.ts'
import { fitPartsProjection } from '../../../src/measure/projection-parts.ts'
import { projectObservation, wallParts } from '../../../src/suites/e2e/e2e-projection.ts'
import { referencePipelineOnCpu } from '../../support/reference-pipeline.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted, tinyInput } from '../support/cpu-suite.ts'
import { type H200Run, loadH200Run } from '../support/h200-runs.ts'

const sequencesOf = (o: RunObservation) => o.measured.run.summary!.sequencesProcessed!

function project(from: H200Run, to: H200Run, monitor?: null) {
  const source = loadH200Run(from)
  const target = loadH200Run(to)
  const outcome =
    monitor === null
      ? projectObservation(source, [{ sequences: sequencesOf(target) }], 'replay', null)
      : projectObservation(source, [{ sequences: sequencesOf(target) }], 'replay')
  if (outcome.state !== 'projected') throw new Error(`${from} not projected: ${outcome.reason}`)
  const projected = outcome.projection.projections[0]!.projectedMs
  const measuredMs = target.measured.run.wallMs
  return { projection: outcome.projection, projected, error: projected.estimate / measuredMs - 1 }
}

describe('e2e projection on real H200 runs', () => {
  test('500 -> 5,000 sequences within 5% of the measured process wall time', () => {
    expect(Math.abs(project('500', '5000').error)).toBeLessThanOrEqual(0.05)
  })

  test('2,000 -> 5,000 within 5% from the run the e2e suite projects (the median, run 2)', () => {
    expect(Math.abs(project('2000-run-2', '5000').error)).toBeLessThanOrEqual(0.05)
  })

  test('2,000 run 1 -> 5,000 stays within 10%: its 0.6 s DNABERT-S stall is scaled as work', () => {
    expect(Math.abs(project('2000-run-1', '5000').error)).toBeLessThanOrEqual(0.1)
  })

  test('500 -> 2,000 stays within 10% of the two runs mean: other lengths, and a 1.3 s slower start-up at 500', () => {
    const measuredMs =
      (loadH200Run('2000-run-1').measured.run.wallMs + loadH200Run('2000-run-2').measured.run.wallMs) / 2
    const projectedMs = project('500', '2000-run-1').projected.estimate
    expect(Math.abs(projectedMs / measuredMs - 1)).toBeLessThanOrEqual(0.1)
  })

  test('the DNABERT-S start-up is read from the monitor: fixed until the GPU is busy', () => {
    const part = project('500', '5000').projection.parts.find((p) => p.name === 'DNABERT-S Feature Extraction')
    expect(part?.method).toBe('onset')
    expect(part!.fixedMs).toBeGreaterThan(part!.durationMs / 2)
  })

  test('without a monitor series DNABERT-S is scaled whole, and the error grows', () => {
    const withMonitor = project('500', '5000').error
    const without = project('500', '5000', null).error
    expect(without).toBeGreaterThan(withMonitor + 0.05)
  })

  test('the CI brackets the estimate and has width (within-run variation)', () => {
    const { projected } = project('500', '5000')
    expect(projected.ci.low).toBeLessThan(projected.estimate)
    expect(projected.ci.high).toBeGreaterThan(projected.estimate)
  })

  test('projecting a run to its own size gives its wall time', () => {
    const run = loadH200Run('5000')
    expect(project('5000', '5000').projected.estimate).toBeCloseTo(run.measured.run.wallMs, 6)
  })
})

const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')('e2e projection of a run sharded over workers (real CPU runs)', () => {
  test('fits each worker its own rate; the slowest bounds the stage, never faster than all workers together', async () => {
    const ctx = await cpuContext()
    const input = await tinyInput(60)
    const m = { ...scripted([fakeGpu(90), fakeGpu(90)], 1, 0, input), profile: ctx.profile, workDir: ctx.workDir }
    const config = cpuConfig('2 workers', ['--cpu-workers', '2', '--esm-batch-size', '512'])
    const run = completedRuns(await measureConfiguration(config, m))[0]!
    const outcome = projectObservation(run, [{ sequences: 1_000_000 }], 'workers', null)
    if (outcome.state !== 'projected') throw new Error(outcome.reason)
    expect(outcome.projection.esm2.workers).toBe(2)
    const esm2 = outcome.projection.parts.find((p) => p.name === 'ESM-2 Feature Extraction')!
    expect(esm2.method).toBe('workers')
    // The same parts fitted here keep each worker's fit. Each worker i needs share_i x N x ms_i for its shard, so the
    // stage is bounded by the largest; with shares summing to 1 that is never below N / (sum of the workers' rates),
    // the time of perfect balance. (Comparing with a fit of the workers' summed progress series, as this test once
    // did, is no such bound: that series is another fit of other points, and a late second worker bends it.)
    const sequences = sequencesOf(run)
    const sharded = fitPartsProjection(wallParts(run, null, sequences).parts, sequences).parts.find((p) => p.workers)!
    const workers = sharded.workers!
    expect(workers.reduce((a, w) => a + w.share, 0)).toBeCloseTo(1, 12)
    const bound = Math.max(...workers.map((w) => w.share * w.model.fit.msPerSequence))
    expect(sharded.msPerSequence).toBe(bound)
    expect(esm2.msPerSequence).toBe(bound)
    const balancedMsPerSequence = 1 / workers.reduce((a, w) => a + 1 / w.model.fit.msPerSequence, 0)
    expect(bound).toBeGreaterThanOrEqual(balancedMsPerSequence)
  }, 120_000)
})
