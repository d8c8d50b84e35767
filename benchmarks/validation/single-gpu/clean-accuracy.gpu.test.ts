/**
 * Validation on 1 GPU, full scale: the clean run (no fault flags, PERF-02 per its numbers, leak checks quiet) and
 * energy per sequence from the counter against mean power x time, both on one clean run of FULL_RECORDS (every suite
 * here reads it through the shared-run cache); and the projection of a 10% subset to its full input, measured
 * interleaved. Monitor overhead: measured by benchmarks/monitor.gpu.bench.ts (VALIDATION.md).
 * GPU machine: VIRNUCPRO_BENCH_VALIDATION=1 npx vitest run --project gpu benchmarks/validation/single-gpu
 */
import { beforeAll, describe, expect, test } from 'vitest'
import { completedRuns } from '../../../src/engine/measure-configuration.ts'
import type { RunObservation } from '../../../src/engine/observe-run.ts'
import type { SampleManifest } from '../../../src/input/manifest.ts'
import { medianRun } from '../../../src/suites/e2e/e2e.ts'
import { projectRun } from '../../../src/suites/e2e/e2e-projection.ts'
import { runMemorySuite, runStageSuite } from '../../../src/suites/index.ts'
import { describeFlags, faultSignatureFlags } from '../../../src/validation/bottleneck-check.ts'
import { checkEnergy } from '../../../src/validation/energy-check.ts'
import { checkProjection, describePartErrors } from '../../../src/validation/projection-check.ts'
import { runEnding } from '../../../src/validation/run-checks.ts'
import {
  FULL_RECORDS,
  faultConfig,
  ONCE,
  PROJECTION_FULL_RECORDS,
  PROJECTION_SUBSET_RECORDS,
  scenario,
} from '../../../src/validation/scenarios.ts'
import { expectedAtLeastVerdict, verdictOf } from '../../../src/validation/verdict-checks.ts'
import { gpuAvailable } from '../../support/gpu.ts'
import { validationAsked } from '../../support/main-job.ts'
import { createRunContext, type RunContext } from '../../support/run-context.ts'
import { measured, measuredInterleaved, mediumInput, once, workSubset } from '../support.ts'

let rc: RunContext
let fullInput = ''
let projectionFull = ''
let projectionSubset: { file: string; manifest: SampleManifest }
beforeAll(async () => {
  if (!gpuAvailable() || !validationAsked()) return
  rc = await createRunContext(1)
  fullInput = await mediumInput(FULL_RECORDS)
  projectionFull = await mediumInput(PROJECTION_FULL_RECORDS)
  projectionSubset = await workSubset(projectionFull, PROJECTION_SUBSET_RECORDS)
})

const clean = () => faultConfig(rc.configs.base([0]), scenario('clean'))

/**
 * The projection check's runs: one warm-up of each size, then PROJECTION_RUNS of each, subset and full in turn, and
 * median run against median run. Start-up (interpreter, imports, CUDA context) varies by seconds between processes
 * (2.8-5.0 s over 60 H200 runs) and drifts: measured one size after the other, three 500-record runs started 0.5-0.9 s
 * slower than the three 5,000-record runs after them, which alone put the projection 3-4% high. In turn, both sizes
 * see the same drift; the warm-ups take the first process's cold caches.
 */
const PROJECTION_RUNS = 3
const projectionPolicy = { ...ONCE, warmupRuns: 1, minRuns: PROJECTION_RUNS, maxRuns: PROJECTION_RUNS }

/** Each run's time before its first stage (start-up), seconds, in run order: the annotation keeps them. */
const startUps = (runs: readonly RunObservation[]) =>
  runs.map((o) => ((o.measured.run.stages[0]?.startMs ?? Number.NaN) / 1000).toFixed(2)).join('/')

describe('validation, 1 GPU: clean run and accuracy', () => {
  test('clean run: no fault flags, PERF-02 per its numbers, leak checks pass', async ({ skip, annotate }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const { record: stage } = await runStageSuite(rc.ctx, once(rc, fullInput), clean())
    const { record: memory } = await runMemorySuite(rc.ctx, once(rc, fullInput), {
      main: clean(),
      oom: null,
      persistent: 'not part of the clean scenario',
    })
    expect(runEnding(stage).exitClass).toBe('completed')
    const flags = faultSignatureFlags(stage)
    expect(flags, describeFlags(flags)).toEqual([])
    const min = stage.thresholds.perf02.minUtilPct
    const perf02 = stage.verdicts.filter((v) => /^perf02\/.+\/gpu0$/.test(v.id))
    expect(perf02.length).toBe(stage.thresholds.perf02.stages.length)
    for (const v of perf02) expect(v.verdict, v.detail).toBe(expectedAtLeastVerdict(v.value, v.ci, min))
    const leak = verdictOf(memory, 'memory/leak/gpu0')
    const slope = verdictOf(memory, 'memory/esm2-slope/gpu0')
    expect(leak.verdict, leak.detail).toBe('pass')
    expect(slope.verdict, slope.detail).toBe('pass')
    const utils = perf02.map((v) => `${v.stage} ${v.value?.toFixed(1)}% (${v.verdict})`).join(', ')
    await annotate(
      `validation clean: PERF-02 ${utils}; leak after run ${leak.value?.toFixed(1)} MiB, ESM-2 slope ${slope.value?.toFixed(2)} MiB/batch; bottleneck report: ${describeFlags(flags)}`,
    )
  })

  test('projection: the 10% subset predicts the full run within 5%', async ({ skip, annotate }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const subsetConfig = {
      ...clean(),
      label: `${clean().label}, ${PROJECTION_SUBSET_RECORDS} of ${PROJECTION_FULL_RECORDS}`,
    }
    const [subsetM, fullM] = await measuredInterleaved(
      rc,
      [
        { config: subsetConfig, input: projectionSubset.file },
        { config: clean(), input: projectionFull },
      ],
      { ...once(rc, projectionFull), policy: projectionPolicy },
    )
    const subsetRuns = completedRuns(subsetM!)
    const fullRuns = completedRuns(fullM!)
    const full = medianRun(fullRuns)
    const subset = medianRun(subsetRuns)
    expect(full && subset, subsetM!.failure?.reason ?? fullM!.failure?.reason ?? 'both sizes completed').toBeTruthy()
    const check = checkProjection(subset!, full!, 'validation')
    expect(check.state, check.state === 'not-projected' ? check.reason : '').toBe('checked')
    if (check.state !== 'checked') return
    const { accuracy, ci } = check
    const spread = (runs: readonly RunObservation[]) => {
      const walls = runs.map((o) => o.measured.run.wallMs)
      return `${(Math.min(...walls) / 1000).toFixed(2)}-${(Math.max(...walls) / 1000).toFixed(2)} s`
    }
    // The e2e suite projects with the same code: its PERF-01 projection of this run to the full size is this one.
    const t = rc.ctx.thresholds
    const perf01 = { ...t.perf01, typicalSequences: PROJECTION_FULL_RECORDS }
    const suite = projectRun(subset!, { ...t, perf01 }, 'validation')
    const suiteMs = suite.state === 'projected' ? suite.projection.projections[0]!.projectedMs.estimate : null
    expect(suiteMs).toBeCloseTo(accuracy.projectedMs, 6)
    const work = projectionSubset.manifest.workPerRecord
    await annotate(
      `validation projection: ${PROJECTION_SUBSET_RECORDS} -> ${PROJECTION_FULL_RECORDS} seqs (subset stratified by work: ${(work.relativeDifference * 100).toFixed(2)}% work per record vs the full input; ESM-2 rate from ${check.projection.esm2.eventsUsed} batch lines) predicted ${(accuracy.projectedMs / 1000).toFixed(2)} s [${(ci.low / 1000).toFixed(2)}, ${(ci.high / 1000).toFixed(2)}] (CI: within-run variation only), measured ${(accuracy.measuredMs / 1000).toFixed(2)} s (process wall, median of ${PROJECTION_RUNS} interleaved after 1 warm-up each: ${spread(fullRuns)}; subset ${spread(subsetRuns)}; start-ups full ${startUps(fullRuns)} s, subset ${startUps(subsetRuns)} s), error ${(accuracy.relativeError * 100).toFixed(1)}%; largest parts of it: ${describePartErrors(check.parts)}`,
    )
    expect(accuracy.within, `error ${(accuracy.relativeError * 100).toFixed(1)}%`).toBe(true)
  })

  test('energy per sequence: counter agrees with mean power x time within 10%', async ({ skip, annotate }) => {
    if (rc.unavailable) skip(rc.unavailable)
    const full = completedRuns(await measured(rc, clean(), once(rc, fullInput)))[0]
    const summary = full?.measured.gpu
    expect(summary, full?.monitorProblem ?? 'no completed run').toBeTruthy()
    const check = checkEnergy(summary!, FULL_RECORDS)
    expect(check.state, JSON.stringify(check)).toBe('within')
    if (check.state === 'within')
      await annotate(
        `validation energy: ${check.counterJPerSequence.toFixed(3)} J/seq (counter) vs ${check.powerTimeJPerSequence.toFixed(3)} J/seq (mean power x time), difference ${(check.relativeError * 100).toFixed(1)}%`,
      )
  })
})
