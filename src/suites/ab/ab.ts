/**
 * A/B analysis (kind `ab`): two commands or revisions measured interleaved (A B A B ...), B judged against A by
 * src/measure's regression rule (Mann-Whitney plus the ratio of medians against the time threshold).
 * `stats` has the shape AbStats.
 */
import type { Thresholds } from '../../config/thresholds.ts'
import { completedRuns, type MeasuredConfiguration } from '../../engine/measure-configuration.ts'
import { failureReason } from '../../engine/record.ts'
import { type EstimateStat, estimate, toStat } from '../../engine/stage-metrics.ts'
import { type Analysis, verdict } from '../../engine/verdict.ts'
import { compareRuns, type RegressionResult } from '../../measure/index.ts'
import type { VerdictValue } from '../../results/schema/index.ts'

export interface AbStats {
  a: { label: string; wallMs: EstimateStat | null; runs: number }
  b: { label: string; wallMs: EstimateStat | null; runs: number }
  /** B against A (ratio = median B / median A, lower is better). */
  comparison: RegressionResult | null
}

const VERDICT_OF: Record<RegressionResult['verdict'], VerdictValue> = {
  regressed: 'fail',
  improved: 'pass',
  unchanged: 'pass',
  inconclusive: 'inconclusive',
}

export function analyzeAb(a: MeasuredConfiguration, b: MeasuredConfiguration, t: Thresholds): Analysis<AbStats> {
  const timesA = completedRuns(a).map((o) => o.measured.run.wallMs)
  const timesB = completedRuns(b).map((o) => o.measured.run.wallMs)
  const side = (m: MeasuredConfiguration, times: number[]) => ({
    label: m.config.label,
    wallMs: toStat(estimate(times, `${m.config.label} wallMs`)),
    runs: times.length,
  })
  const comparison =
    timesA.length > 0 && timesB.length > 0
      ? compareRuns(timesB, timesA, { threshold: t.regression.timeThreshold })
      : null
  const stats: AbStats = { a: side(a, timesA), b: side(b, timesB), comparison }
  const base = {
    id: `ab/${b.config.label}-vs-${a.config.label}`,
    title: `${b.config.label} vs ${a.config.label} (wall time)`,
    unit: 'B/A',
    threshold: `regression beyond +${t.regression.timeThreshold * 100}%`,
  }
  if (!comparison) {
    // A side with no completed run is no comparison: `error`, with the failure that left it empty.
    const why = failureReason([a, b])
    const detail = `completed runs: A ${timesA.length}, B ${timesB.length}${why ? `; ${why}` : ''}`
    return { stats, verdicts: [verdict({ ...base, verdict: 'error', detail })] }
  }
  return {
    stats,
    verdicts: [
      verdict({
        ...base,
        verdict: VERDICT_OF[comparison.verdict],
        value: comparison.ratio?.estimate ?? null,
        ci: comparison.ratio?.ci ?? null,
        detail: `${comparison.verdict}: ${comparison.reason}`,
      }),
    ],
  }
}
