/**
 * Synthetic histories for tests and benchmarks: runs with known values, so a change-point test knows where the step
 * is and a benchmark can build 10,000 runs x 50 metrics in seconds through the store's bulk path (one transaction).
 */
import { createHash } from 'node:crypto'
import type { HistoryRecordInput, HistoryRunInput } from '../../../src/history/entry.ts'
import { HistoryStore } from '../../../src/history/store.ts'
import { createRandomSource } from '../../../src/measure/rng.ts'

export interface SyntheticOptions {
  runs: number
  /** Metrics per run: `synthetic/m0` ... (unit ms, lower is better, base 1000 ms). */
  metrics: number
  /** Hosts the runs rotate through (default one, `synthetic-host`). */
  hosts?: readonly string[]
  gpuModel?: string
  /** Relative noise of each value, uniform in +/- noise (default 0.01). */
  noise?: number
  /**
   * Relative noise of each point's level, uniform in +/- nightNoise and shared by the point's runs (default 0: none):
   * the host's state of one night, which every run of that night sees.
   */
  nightNoise?: number
  /** Multiply these metrics' values by `factor` from run `atRun` on (0-based): a planted step. */
  step?: { metrics: readonly string[]; atRun: number; factor: number }
  /** The commit index of run i (default i: one run per commit). */
  commitOfRun?: (run: number) => number
  seed?: string
  /** Metric names; default `synthetic/m<i>`. */
  names?: readonly string[]
  /** Runs behind each point (stored as its samples; the value is their median). Default 3; 0 stores none. */
  runsPerPoint?: number
}

/** A 40-hex commit id for commit index i (distinct in its first 10 characters too, as the text output shows them). */
export const syntheticCommit = (index: number) => createHash('sha1').update(`commit ${index}`).digest('hex')
export const syntheticMetric = (index: number) => `synthetic/m${index}`
const START_MS = Date.parse('2026-01-01T00:00:00.000Z')

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b)
  const half = sorted.length >> 1
  return sorted.length % 2 === 1 ? sorted[half]! : (sorted[half - 1]! + sorted[half]!) / 2
}

/** The runs of a synthetic history, oldest first; run i is created i minutes after 2026-01-01. */
export function syntheticHistory(options: SyntheticOptions): HistoryRunInput[] {
  const random = createRandomSource(options.seed ?? 'synthetic-history')
  const hosts = options.hosts ?? ['synthetic-host']
  const noise = options.noise ?? 0.01
  const commitOfRun = options.commitOfRun ?? ((run: number) => run)
  const names = options.names ?? Array.from({ length: options.metrics }, (_, i) => syntheticMetric(i))
  const stepped = new Set(options.step?.metrics ?? [])
  const runsPerPoint = options.runsPerPoint ?? 3
  return Array.from({ length: options.runs }, (_, run) => {
    const factorOf = (name: string) =>
      options.step && run >= options.step.atRun && stepped.has(name) ? options.step.factor : 1
    const record: HistoryRecordInput = {
      recordId: 'synthetic',
      kind: 'stage',
      state: 'completed',
      createdAt: new Date(START_MS + run * 60_000).toISOString(),
      host: hosts[run % hosts.length]!,
      gpuModel: options.gpuModel ?? 'NVIDIA H200',
      targetProfile: 'reference',
      commit: syntheticCommit(commitOfRun(run)),
      commitOf: 'suite',
      commitDirty: false,
      suiteVersion: '0.1.0',
      regressionThreshold: 0.1,
      metrics: names.map((name) => {
        // Drawn only when asked for, so histories without it keep their values.
        const night = options.nightNoise ? 1 + options.nightNoise * (2 * random() - 1) : 1
        const level = 1000 * factorOf(name) * night
        const draw = () => level * (1 + noise * (2 * random() - 1))
        const samples = Array.from({ length: runsPerPoint }, draw)
        const value = runsPerPoint === 0 ? draw() : median(samples)
        return {
          name,
          unit: 'ms',
          better: 'lower' as const,
          value,
          ci: { low: value * 0.99, high: value * 1.01 },
          n: runsPerPoint || null,
          verdict: null,
          samples: runsPerPoint === 0 ? null : samples,
        }
      }),
    }
    return { runId: `synthetic-${String(run).padStart(6, '0')}`, sourceDir: 'synthetic', records: [record] }
  })
}

/** Writes a synthetic history into `file` (created when missing) in one transaction. */
export function insertSyntheticHistory(file: string, options: SyntheticOptions): void {
  using store = HistoryStore.open(file, { create: true })
  store.addRuns(syntheticHistory(options))
}
