/**
 * End to end: for each e2e record's run group, wall time and sequences processed, the time per sequence (median with
 * CI over the repeated runs) and the projection to the PERF-01 sample sizes against the target. The projection
 * multiplies the per-sequence time of a whole run, fixed costs included, so it errs long (an upper bound); a suite's
 * own fit from batch events, where present, is among the record's verdicts (`perf01/...`).
 */
import { medianWithCi, toSorted } from '../../measure/index.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import { type CountedRun, countedRuns, gpuCountOf, groupBy, medianOf } from './runs.ts'

export interface E2eProjection {
  sequences: number
  projectedMs: number
  ci: { low: number; high: number } | null
  limitMs: number
  verdict: 'pass' | 'fail' | 'inconclusive'
}

export interface E2eRow {
  recordId: string
  group: string
  gpuCount: number
  runs: number
  wallMs: number
  sequences: number | null
  msPerSequence: number | null
  msPerSequenceCi: { low: number; high: number } | null
  projections: E2eProjection[]
}

export interface E2eReport {
  rows: E2eRow[]
}

function judge(ci: { low: number; high: number } | null, limitMs: number): E2eProjection['verdict'] {
  if (ci === null) return 'inconclusive'
  if (ci.high <= limitMs) return 'pass'
  return ci.low > limitMs ? 'fail' : 'inconclusive'
}

function rowOf(runs: CountedRun[], record: ResultRecord): E2eRow {
  const first = runs[0] as CountedRun
  const perSeq = runs.flatMap(({ measured }) => {
    const n = measured.run.summary?.sequencesProcessed ?? null
    return n && n > 0 ? [measured.run.wallMs / n] : []
  })
  const estimate = perSeq.length > 0 ? medianWithCi(toSorted(perSeq, 'ms per sequence')) : null
  const perf01 = record.thresholds.perf01
  const limitMs = perf01.targetMs * (1 + perf01.tolerance)
  const projections = estimate
    ? [perf01.typicalSequences, perf01.productionSequences].map((sequences) => {
        const ci = estimate.ci ? { low: estimate.ci.low * sequences, high: estimate.ci.high * sequences } : null
        const projectedMs = estimate.median * sequences
        return { sequences, projectedMs, ci, limitMs, verdict: judge(ci, limitMs) }
      })
    : []
  return {
    recordId: record.id,
    group: first.group,
    gpuCount: gpuCountOf(first.measured),
    runs: runs.length,
    wallMs: medianOf(runs.map((r) => r.measured.run.wallMs)) ?? 0,
    sequences: medianOf(
      runs.flatMap((r) =>
        r.measured.run.summary?.sequencesProcessed ? [r.measured.run.summary.sequencesProcessed] : [],
      ),
    ),
    msPerSequence: estimate?.median ?? null,
    msPerSequenceCi: estimate?.ci ? { low: estimate.ci.low, high: estimate.ci.high } : null,
    projections,
  }
}

/** Pure: e2e records in, one row per run group. */
export function analyzeE2e(records: readonly ResultRecord[]): E2eReport {
  const e2e = records.filter((r) => r.kind === 'e2e')
  const byId = new Map(e2e.map((r) => [r.id, r]))
  const groups = groupBy(countedRuns(e2e), (r) => `${r.recordId}\u0000${r.group}`)
  return {
    rows: [...groups.values()].map((runs) => rowOf(runs, byId.get((runs[0] as CountedRun).recordId) as ResultRecord)),
  }
}
