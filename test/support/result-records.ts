import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import type { RunObservation } from '../../src/engine/observe-run.ts'
import type { RunRecord } from '../../src/pipeline/run-record.ts'
import type { ResultRecord } from '../../src/results/schema/index.ts'

/** A completed run record of the shape the runner writes (two stages), for schema, store and report tests. */
export function sampleRunRecord(overrides: Partial<RunRecord> = {}): RunRecord {
  return {
    profile: 'reference',
    command: { file: 'python3', args: ['-m', 'refpipe', 'predict', 'in.fa', '-o', 'out', '--force'], env: {} },
    exitClass: 'completed',
    reason: null,
    exitCode: 0,
    signal: null,
    startedAt: '2026-11-22T00:00:00.000Z',
    wallMs: 12_345,
    stages: [
      {
        index: 5,
        name: 'DNABERT-S Feature Extraction',
        startMs: 100,
        endMs: 2_100,
        receivedDurationMs: 2_000,
        logDurationS: 2.0,
        summaryDurationS: 2.0,
        skippedReason: null,
        extras: { sequences: 1_537 },
      },
    ],
    stageMismatches: [],
    summary: null,
    sawOom: false,
    outputs: { state: 'not-read', reason: 'test' },
    logPath: null,
    logTail: [],
    gpusRequested: [0],
    gpusUsed: [0],
    gpuMismatch: false,
    pids: [4242],
    cleanup: { signalsSent: [], escapees: [], survivors: [], gpuCheck: 'not-run' },
    ...overrides,
  }
}

/** A valid result record; pass overrides for the fields a test is about. */
export function sampleResultRecord(overrides: Partial<ResultRecord> = {}): ResultRecord {
  return {
    schemaVersion: 1,
    id: 'stage-reference-1gpu',
    kind: 'stage',
    name: 'stage throughput, reference, 1 GPU',
    state: 'completed',
    reason: null,
    createdAt: '2026-11-22T00:00:13.000Z',
    provenance: {
      runId: '2026-11-22T00-00-00Z-ab12',
      suite: { name: 'virnucpro-bench', version: '0.1.0', git: { commit: 'a'.repeat(40), dirty: false } },
      target: { profile: 'reference', dir: null, git: null, versions: { torch: '2.11.0' } },
      host: { hostname: 'gpu-host', platform: 'linux 6.18', arch: 'x64', cpus: 16, memBytes: 137_438_953_472 },
      node: '24.21.0',
      nvml: { available: false, reason: 'libnvidia-ml.so.1 not found' },
    },
    runs: [{ label: '1 GPU #1', config: { gpus: [0] }, warmup: false, run: sampleRunRecord(), gpu: null }],
    stats: {},
    thresholds: DEFAULT_THRESHOLDS,
    verdicts: [
      {
        id: 'perf02/ESM-2 Feature Extraction/gpu0',
        title: 'PERF-02 ESM-2 utilization, GPU 0',
        verdict: 'pass',
        value: 97.5,
        unit: '%',
        ci: null,
        threshold: '>= 80%',
        detail: 'mean utilization over the stage window',
        stage: 'ESM-2 Feature Extraction',
        gpu: 0,
      },
    ],
    ...overrides,
  }
}

/** A run observation as the suites hold it (kept-runs tests): a measured run labelled `label`, nothing monitored. */
export function observation(label: string, run: Partial<RunRecord> = {}): RunObservation {
  return {
    measured: { label, config: { setup: '1 GPU', gpus: [0] }, warmup: false, run: sampleRunRecord(run), gpu: null },
    esm2Batches: [],
    esm2Completions: [],
    memory: [],
    monitorProblem: 'monitor off for this measurement',
    versions: { torch: '2.11.0' },
  }
}
