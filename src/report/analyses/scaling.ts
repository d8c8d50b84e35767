/**
 * Scaling: for each scaling record, wall time by GPU count (median with CI) and speedup over 1 GPU with its bootstrap
 * CI and band verdict (src/measure speedup), for the total and per stage, plus the ideal line (speedup = N).
 */
import { medianWithCi, type SpeedupResult, speedup, toSorted } from '../../measure/index.ts'
import { type CountedRun, countedRuns, gpuCountOf, groupBy, stageDurationsMs } from '../../results/runs.ts'
import type { ResultRecord } from '../../results/schema/index.ts'

/**
 * Bootstrap resamples per speedup CI: the percentile end points of a 95% interval move by well under 1% of the speedup
 * between seeds at this count, and a run with many scaling records stays fast (a curve costs ~0.2 ms instead of ~1 ms).
 */
export const SCALING_RESAMPLES = 2_000

export interface ScalingPoint {
  gpuCount: number
  runs: number
  medianMs: number
  ci: { low: number; high: number } | null
  /**
   * The CI's exact coverage where it is known (order statistic: 75% for 3 runs, [min, max] being the best a few runs
   * give); null for the bootstrap above 30 runs, whose level is the nominal 95%, or without a CI.
   */
  ciCoverage: number | null
  speedup: number | null
  speedupCi: { low: number; high: number } | null
  efficiency: number | null
  verdict: SpeedupResult['verdict'] | null
  reason: string | null
}

export interface ScalingCurve {
  recordId: string
  name: string
  /** `total` or a stage name. */
  scope: string
  points: ScalingPoint[]
}

export interface ScalingReport {
  curves: ScalingCurve[]
}

function curve(record: ResultRecord, scope: string, timesByGpus: Map<number, number[]>): ScalingCurve {
  const single = timesByGpus.get(1) ?? []
  const points: ScalingPoint[] = []
  for (const [gpuCount, times] of [...timesByGpus].sort(([a], [b]) => a - b)) {
    const estimate = medianWithCi(toSorted(times, `${scope} times, ${gpuCount} GPUs`))
    const point: ScalingPoint = {
      gpuCount,
      runs: times.length,
      medianMs: estimate.median,
      ci: estimate.ci ? { low: estimate.ci.low, high: estimate.ci.high } : null,
      ciCoverage: estimate.ci?.coverage ?? null,
      speedup: gpuCount === 1 ? 1 : null,
      speedupCi: null,
      efficiency: gpuCount === 1 ? 1 : null,
      verdict: null,
      reason: null,
    }
    if (gpuCount > 1 && single.length > 0 && times.every((t) => t > 0) && single.every((t) => t > 0)) {
      const band = record.thresholds.scalingBands[String(gpuCount)]
      const result = speedup(single, times, gpuCount, {
        band: band ? { low: band[0], high: band[1] } : null,
        resamples: SCALING_RESAMPLES,
      })
      point.speedup = result.speedup.estimate
      point.speedupCi = result.speedup.ci ? { low: result.speedup.ci.low, high: result.speedup.ci.high } : null
      point.efficiency = result.efficiency.estimate
      point.verdict = result.verdict
      point.reason = result.reason
    }
    points.push(point)
  }
  return { recordId: record.id, name: record.name, scope, points }
}

function curvesOf(record: ResultRecord, runs: CountedRun[]): ScalingCurve[] {
  const total = new Map<number, number[]>()
  const stages = new Map<string, Map<number, number[]>>()
  for (const { measured } of runs) {
    const n = gpuCountOf(measured)
    total.set(n, [...(total.get(n) ?? []), measured.run.wallMs])
    for (const { stage, durationMs } of stageDurationsMs(measured)) {
      const byGpus = stages.get(stage) ?? new Map<number, number[]>()
      byGpus.set(n, [...(byGpus.get(n) ?? []), durationMs])
      stages.set(stage, byGpus)
    }
  }
  const perStage = [...stages]
    .filter(([, byGpus]) => byGpus.size > 1)
    .map(([stage, byGpus]) => curve(record, stage, byGpus))
  return [curve(record, 'total', total), ...perStage]
}

/** Pure: scaling records in, one curve for the total and one per stage seen at several GPU counts. */
export function analyzeScaling(records: readonly ResultRecord[]): ScalingReport {
  const scaling = records.filter((r) => r.kind === 'scaling')
  const runs = groupBy(countedRuns(scaling), (r) => r.recordId)
  return { curves: scaling.filter((r) => runs.has(r.id)).flatMap((r) => curvesOf(r, runs.get(r.id) as CountedRun[])) }
}
