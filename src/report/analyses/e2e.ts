/**
 * End to end: for each e2e record's run group, wall time and sequences processed, the time per sequence (median with
 * CI over the repeated runs), and for the group the suite projected, its projection to the PERF-01 sample sizes as
 * the record stores it (src/suites/e2e/e2e-projection.ts: fixed costs apart from the steady rate). The report computes no
 * projection of its own, so it never disagrees with the record's `perf01/...` verdicts.
 */
import { medianWithCi, type ProjectedTime, toSorted } from '../../measure/index.ts'
import { type CountedRun, countedRuns, gpuCountOf, groupBy, medianOf } from '../../results/runs.ts'
import type { ResultRecord } from '../../results/schema/index.ts'

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

/** The suite's projections for `group`, read from the record's stats (the e2e suite's `typical` entry). */
function storedProjections(record: ResultRecord, group: string): E2eProjection[] {
  const typical = record.stats.typical as
    | { configuration?: string; projection?: { state: string; projection?: { projections?: ProjectedTime[] } } }
    | undefined
  if (typical?.configuration !== group || typical.projection?.state !== 'projected') return []
  return (typical.projection.projection?.projections ?? []).map((p) => ({
    sequences: p.sequences,
    projectedMs: p.projectedMs.estimate,
    ci: { low: p.projectedMs.ci.low, high: p.projectedMs.ci.high },
    limitMs: p.limitMs,
    verdict: p.verdict,
  }))
}

function rowOf(runs: CountedRun[], record: ResultRecord): E2eRow {
  const first = runs[0] as CountedRun
  const perSeq = runs.flatMap(({ measured }) => {
    const n = measured.run.summary?.sequencesProcessed ?? null
    return n && n > 0 ? [measured.run.wallMs / n] : []
  })
  const estimate = perSeq.length > 0 ? medianWithCi(toSorted(perSeq, 'ms per sequence')) : null
  const projections = storedProjections(record, first.group)
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
