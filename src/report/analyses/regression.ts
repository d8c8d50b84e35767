/**
 * Regression against a stored baseline run: for every run group present in both (same record id, same setup label),
 * the total wall time and each stage's time are compared with src/measure compareMetrics (Mann-Whitney + bootstrap
 * ratio CI, threshold `regression.timeThreshold`). Groups or metrics on one side only are listed, never guessed; a
 * baseline group whose record this run has but failed (no completed run to compare) is an error, which fails the gate
 * as a regression does: a pipeline that no longer runs has not passed it.
 */
import { compareMetrics, type MetricComparison, type MetricRuns } from '../../measure/index.ts'
import { type CountedRun, countedRuns, groupBy, stageDurationsMs } from '../../results/runs.ts'
import type { ResultRecord } from '../../results/schema/index.ts'

export interface RegressionReport {
  baselineDir: string
  baselineRunId: string | null
  threshold: number
  comparisons: (MetricComparison & { recordId: string; group: string; metric: string })[]
  /** Groups found on one side only. */
  unmatched: { side: 'candidate' | 'baseline'; recordId: string; group: string }[]
  regressed: number
  /** Baseline groups whose record this run has, not completed: nothing to compare (the record's reason says why). */
  errors: { recordId: string; group: string; reason: string }[]
}

/** Whether --fail-on-regression fails the run: a significant regression, or a comparison the run's failures prevented. */
export function regressionGateFails(report: RegressionReport | null): boolean {
  return report !== null && (report.regressed > 0 || report.errors.length > 0)
}

function metricsOf(runs: CountedRun[]): Map<string, number[]> {
  const metrics = new Map<string, number[]>([['wall time', runs.map((r) => r.measured.run.wallMs)]])
  for (const run of runs)
    for (const { stage, durationMs } of stageDurationsMs(run.measured))
      metrics.set(stage, [...(metrics.get(stage) ?? []), durationMs])
  return metrics
}

const keyOf = (r: CountedRun) => `${r.recordId}\u0000${r.group}`

export function analyzeRegression(
  candidate: readonly ResultRecord[],
  baseline: readonly ResultRecord[],
  baselineDir: string,
): RegressionReport {
  const threshold = candidate[0]?.thresholds.regression.timeThreshold ?? 0.1
  const mine = groupBy(countedRuns(candidate), keyOf)
  const theirs = groupBy(countedRuns(baseline), keyOf)
  const comparisons: RegressionReport['comparisons'] = []
  const unmatched: RegressionReport['unmatched'] = []
  const errors: RegressionReport['errors'] = []
  const notCompleted = new Map(candidate.filter((r) => r.state === 'failed').map((r) => [r.id, r]))
  for (const [key, runs] of mine) {
    const first = runs[0] as CountedRun
    const base = theirs.get(key)
    if (!base) {
      unmatched.push({ side: 'candidate', recordId: first.recordId, group: first.group })
      continue
    }
    const baseMetrics = metricsOf(base)
    const inputs: MetricRuns[] = []
    const names: string[] = []
    for (const [metric, values] of metricsOf(runs)) {
      const before = baseMetrics.get(metric)
      if (before && before.length > 0 && values.every((v) => v > 0) && before.every((v) => v > 0)) {
        inputs.push({ name: `${first.recordId}/${first.group}/${metric}`, candidate: values, baseline: before })
        names.push(metric)
      }
    }
    compareMetrics(inputs, { threshold }).forEach((c, i) => {
      comparisons.push({ ...c, recordId: first.recordId, group: first.group, metric: names[i] as string })
    })
  }
  for (const [key, runs] of theirs) {
    if (mine.has(key)) continue
    const { recordId, group } = runs[0] as CountedRun
    const failed = notCompleted.get(recordId)
    if (failed) errors.push({ recordId, group, reason: `record failed: ${failed.reason ?? 'no reason given'}` })
    else unmatched.push({ side: 'baseline', recordId, group })
  }
  return {
    baselineDir,
    baselineRunId: baseline[0]?.provenance.runId ?? null,
    threshold,
    comparisons,
    unmatched,
    regressed: comparisons.filter((c) => c.verdict === 'regressed').length,
    errors,
  }
}
