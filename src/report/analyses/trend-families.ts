/**
 * Which history series are headline for the trends (metric-names.ts lists the families): wall time, rates per stage,
 * PERF-02 utilization, J/seq and the projected time at the production size. Pure.
 */
import { DEFAULT_THRESHOLDS } from '../../config/thresholds.ts'
import type { Series } from '../../history/read.ts'

export const TREND_FAMILIES = ['wall', 'rate', 'perf02', 'energy', 'projection'] as const
export type TrendFamily = (typeof TREND_FAMILIES)[number]

/**
 * The headline family of a metric name (metric-names.ts), or null when it is not one: `wall/*`, `energy/*`,
 * `rate/*` and `capacity/<gpus>/rate/*`, `perf02/*` and `capacity/<gpus>/perf02/*`, `capacity/<gpus>/perf01/<production>`.
 */
export function trendFamilyOf(
  metric: string,
  productionSequences = DEFAULT_THRESHOLDS.perf01.productionSequences,
): TrendFamily | null {
  if (metric.startsWith('wall/')) return 'wall'
  if (metric.startsWith('energy/')) return 'energy'
  if (/^(?:capacity\/\d+\/)?rate\/./.test(metric)) return 'rate'
  if (/^(?:capacity\/\d+\/)?perf02\/./.test(metric)) return 'perf02'
  const projection = /^capacity\/\d+\/perf01\/(\d+)$/.exec(metric)
  return projection && Number(projection[1]) === productionSequences ? 'projection' : null
}

/** A series the trends draw: a headline metric with at least two points. */
export const isTrendSeries = (s: Series) => s.values.length >= 2 && trendFamilyOf(s.metric.name) !== null
