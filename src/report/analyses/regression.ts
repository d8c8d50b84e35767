/**
 * Regression against a stored baseline run: for every run group present in both (same record id, same setup label),
 * the total wall time and each stage's time are compared with src/measure compareMetrics (Mann-Whitney + bootstrap
 * ratio CI, threshold `regression.timeThreshold`). Groups or metrics on one side only are listed, never guessed.
 */
import { compareMetrics, type MetricComparison, type MetricRuns } from '../../measure/index.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import { type CountedRun, countedRuns, groupBy, stageDurationsMs } from './runs.ts'

export interface RegressionReport {
  baselineDir: string
  baselineRunId: string | null
  threshold: number
  comparisons: (MetricComparison & { recordId: string; group: string; metric: string })[]
  /** Groups found on one side only. */
  unmatched: { side: 'candidate' | 'baseline'; recordId: string; group: string }[]
  regressed: number
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
  for (const [key, runs] of theirs)
    if (!mine.has(key))
      unmatched.push({
        side: 'baseline',
        recordId: (runs[0] as CountedRun).recordId,
        group: (runs[0] as CountedRun).group,
      })
  return {
    baselineDir,
    baselineRunId: baseline[0]?.provenance.runId ?? null,
    threshold,
    comparisons,
    unmatched,
    regressed: comparisons.filter((c) => c.verdict === 'regressed').length,
  }
}
