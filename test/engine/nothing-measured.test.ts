// Every two-sided comparison (A/B, optimization matrix, equivalence, e2e large vs typical) and every check left with no
// completed run (stage, sweep, e2e typical) is `error` with the failure's reason, never pass or fail. The failed side is
// a REAL failed run (the runner on a python3 that dies with an ImportError); the completed side is the real H200 runs
// of test/fixtures/h200-runs.
import { beforeAll, describe, expect, test } from 'vitest'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import type { MeasuredConfiguration } from '../../src/engine/measure-configuration.ts'
import { UPSTREAM_EXIT_CODES } from '../../src/pipeline/profiles.ts'
import type { RunRecord } from '../../src/pipeline/run-record.ts'
import { runTarget } from '../../src/pipeline/runner.ts'
import type { Verdict } from '../../src/results/schema/index.ts'
import { analyzeAb } from '../../src/suites/ab/ab.ts'
import { analyzeE2e } from '../../src/suites/e2e/e2e-verdicts.ts'
import { analyzeEquivalence } from '../../src/suites/equivalence/equivalence.ts'
import { analyzeStageThroughput } from '../../src/suites/stage/stage.ts'
import { analyzeSweep } from '../../src/suites/sweep/sweep.ts'
import { fakeProfile, makeWorkdir, PYTHON } from '../pipeline/support/fake-profile.ts'
import { loadH200Run } from '../suites/support/h200-runs.ts'

const CAUSE = "ImportError: cannot import name '_aligncore' from 'Bio.Align'"
let failedRun: RunRecord

beforeAll(async () => {
  const work = await makeWorkdir()
  try {
    const code = `raise ImportError("cannot import name '_aligncore' from 'Bio.Align'")`
    const profile = {
      ...fakeProfile(),
      exitCodes: UPSTREAM_EXIT_CODES,
      launcher: async () => ({ state: 'ready' as const, launcher: { file: PYTHON, args: ['-c', code], env: {} } }),
    }
    failedRun = await runTarget(profile, { input: work.input, outputDir: work.outputDir })
  } finally {
    await work.remove()
  }
})

/** A measurement stopped by its failed warm-up (the real failed run), as measureInterleaved leaves it. */
function failed(label: string): MeasuredConfiguration {
  const run = `${label} warm-up 1`
  return {
    config: { label, gpus: [0] },
    observations: [
      {
        measured: { label: run, config: { setup: label, gpus: [0] }, warmup: true, run: failedRun, gpu: null },
        esm2Batches: [],
        esm2Completions: [],
        memory: [],
        monitorProblem: null,
        versions: {},
      },
    ],
    stop: 'run-failed',
    failure: { label: run, exitClass: failedRun.exitClass, reason: failedRun.reason ?? '' },
    reusedRuns: 0,
  }
}

/** Two real completed H200 runs. */
function completed(label: string): MeasuredConfiguration {
  const observations = [loadH200Run('2000-run-1'), loadH200Run('2000-run-2')]
  return { config: { label, gpus: [0] }, observations, stop: 'run-budget', failure: null, reusedRuns: 0 }
}

function expectError(v: Verdict | undefined, failedLabel: string): void {
  expect(v?.verdict, v?.id).toBe('error')
  expect(v?.detail).toContain(`${failedLabel} warm-up 1 ended as failed: exit code 1: ${CAUSE}`)
}

describe('nothing measured on a side is error, with the reason', () => {
  test('the real failed run names its cause', () => {
    expect(failedRun.reason).toBe(`exit code 1: ${CAUSE}`)
  })

  test('A/B: B did not run', () => {
    const { verdicts } = analyzeAb(completed('fp32'), failed('fp16'), DEFAULT_THRESHOLDS)
    expectError(verdicts[0], 'fp16')
  })

  test('optimization matrix: an arm with no completed run', () => {
    const input = { typical: completed('typical'), matrix: [completed('baseline'), failed('persistent')] }
    const { verdicts } = analyzeE2e(input, DEFAULT_THRESHOLDS)
    expectError(
      verdicts.find((v) => v.id === 'e2e/matrix/persistent'),
      'persistent',
    )
  })

  test('equivalence: the candidate did not run', async () => {
    const { verdicts } = await analyzeEquivalence(completed('fp32'), failed('fp16'), DEFAULT_THRESHOLDS)
    expectError(verdicts[0], 'fp16')
  })

  test('e2e: a typical sample that never ran has no projection, throughput or utilization verdict', () => {
    const { verdicts } = analyzeE2e({ typical: failed('typical') }, DEFAULT_THRESHOLDS)
    for (const id of ['perf01', 'e2e/throughput', 'e2e/utilization'])
      expectError(
        verdicts.find((v) => v.id === id),
        'typical',
      )
  })

  test('e2e: a large sample that never ran (not by OOM) judges neither OOM, throttling nor stability', () => {
    const { verdicts } = analyzeE2e({ typical: completed('typical'), large: failed('large') }, DEFAULT_THRESHOLDS)
    for (const id of ['e2e/large/oom', 'e2e/large/throttling', 'e2e/large/throughput'])
      expectError(
        verdicts.find((v) => v.id === id),
        'large',
      )
  })

  test('stage throughput and sweep with no completed run', () => {
    expectError(analyzeStageThroughput(failed('1 GPU'), DEFAULT_THRESHOLDS).verdicts[0], '1 GPU')
    const sweep = analyzeSweep([failed('batch 256')]).verdicts[0]
    expect(sweep?.verdict).toBe('error')
    expect(sweep?.detail).toBe(`no setting completed a run; failed: batch 256 (failed: exit code 1: ${CAUSE})`)
  })
})
