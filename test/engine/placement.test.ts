// Placement over runs that failed: what a run asked for is read however it ended; a failed run is judged only on GPU
// work it did (a crash explains an unused GPU, not work on an unasked one), and the failed runs left unjudged are said.
// CONSTRUCTED: the run records (the runner's shape) and their attribution.
import { describe, expect, test } from 'vitest'
import type { MeasuredConfiguration } from '../../src/engine/measure-configuration.ts'
import { placementEntries, placementVerdict } from '../../src/engine/placement.ts'
import type { RunRecord } from '../../src/pipeline/run-record.ts'
import { sampleRunRecord } from '../support/result-records.ts'

const CRASH = { exitClass: 'failed' as const, exitCode: 1, reason: 'exit code 1: RuntimeError: CUDA error' }

function measurement(label: string, runs: { warmup: boolean; run: Partial<RunRecord> }[]): MeasuredConfiguration {
  const observations = runs.map(({ warmup, run }, i) => ({
    measured: {
      label: `${label} ${warmup ? 'warm-up' : 'run'} ${i + 1}`,
      config: { setup: label },
      warmup,
      run: sampleRunRecord(run),
      gpu: null,
    },
    esm2Batches: [],
    esm2Completions: [],
    memory: [],
    monitorProblem: null,
    versions: {},
  }))
  return { config: { label, gpus: null }, observations, stop: 'run-failed', failure: null, reusedRuns: 0 }
}

describe('placement with failed runs', () => {
  test('runs on exactly their GPUs pass; a failed run without GPU work is left unjudged, and counted', () => {
    const m = measurement('2 GPUs', [
      { warmup: true, run: { gpusRequested: [0, 1], gpusUsed: [0, 1] } },
      { warmup: false, run: { gpusRequested: [0, 1], gpusUsed: [0, 1] } },
      { warmup: false, run: { ...CRASH, gpusRequested: [0, 1], gpusUsed: [] } },
    ])
    const v = placementVerdict(placementEntries([m]))
    expect([v.verdict, v.detail]).toEqual([
      'pass',
      '2 run(s) used exactly the GPUs asked for; 1 failed run(s) without GPU work left unjudged',
    ])
  })

  test('a failed run that worked on a GPU it did not ask for fails placement; its unused GPUs are not held against it', () => {
    const m = measurement('1 GPU', [{ warmup: true, run: { ...CRASH, gpusRequested: [0, 1], gpusUsed: [2] } }])
    const [entry] = placementEntries([m])
    expect(entry).toMatchObject({ idle: [], unexpected: [2], failed: `failed: ${CRASH.reason}` })
    const v = placementVerdict([entry!])
    expect([v.verdict, v.detail]).toEqual(['fail', '1 GPU warm-up 1: asked 0,1, used 2'])
  })

  test('every run failed before GPU work: error with the first failure, not skipped', () => {
    const m = measurement('1 GPU', [{ warmup: true, run: { ...CRASH, gpusRequested: [0], gpusUsed: null } }])
    const v = placementVerdict(placementEntries([m]))
    expect([v.verdict, v.detail]).toEqual([
      'error',
      `1 run(s) asked for GPUs (1 GPU warm-up 1: asked 0) and failed before any GPU work to judge: 1 GPU warm-up 1 ended as failed: ${CRASH.reason}`,
    ])
  })

  test('runs that asked for no GPU (CPU, target default) still skip placement', () => {
    const m = measurement('cpu', [{ warmup: false, run: { ...CRASH, gpusRequested: null, gpusUsed: null } }])
    expect(placementVerdict(placementEntries([m])).verdict).toBe('skipped')
  })
})
