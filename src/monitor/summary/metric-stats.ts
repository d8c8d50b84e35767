/** avg / min / max / p50 / p95 of one metric over a set of samples, through the one statistics module (src/measure). */
import { quantile, summarize, toSorted } from '../../measure/index.ts'
import type { SampleRecord } from '../records.ts'

export interface MetricStats {
  n: number
  mean: number
  min: number
  max: number
  p50: number
  p95: number
}

/** The per-sample metrics every window summarizes; GPM ones only over samples that carry a GPM reading. */
export const SAMPLE_METRICS = {
  utilPct: (s: SampleRecord) => s.utilPct,
  utilMemoryPct: (s: SampleRecord) => s.utilMemoryPct,
  memUsedBytes: (s: SampleRecord) => s.memUsedBytes,
  powerMw: (s: SampleRecord) => s.powerMw,
  tempC: (s: SampleRecord) => s.tempC,
  smClockMhz: (s: SampleRecord) => s.smClockMhz,
  memClockMhz: (s: SampleRecord) => s.memClockMhz,
  gpmSmUtilPct: (s: SampleRecord) => s.gpm?.smUtilPct ?? null,
  gpmTensorUtilPct: (s: SampleRecord) => s.gpm?.tensorUtilPct ?? null,
  gpmDramBwUtilPct: (s: SampleRecord) => s.gpm?.dramBwUtilPct ?? null,
} as const

export type SampleMetricName = keyof typeof SAMPLE_METRICS
/** Sample metrics plus the driver's buffered utilization readings. */
export type MetricName = SampleMetricName | 'driverUtilPct'

/** Stats of the non-null values; null when there are none. */
export function metricStats(values: readonly (number | null)[]): MetricStats | null {
  const present = values.filter((value): value is number => value !== null)
  if (present.length === 0) return null
  const sorted = toSorted(present, 'monitor metric')
  const summary = summarize(sorted)
  return {
    n: summary.n,
    mean: summary.mean,
    min: summary.min,
    max: summary.max,
    p50: summary.median,
    p95: quantile(sorted, 0.95),
  }
}

/** Stats of every sample metric over `samples`, plus `driverUtilPct` over the driver's readings. */
export function allMetricStats(
  samples: readonly SampleRecord[],
  driverUtilPct: readonly number[],
): Record<MetricName, MetricStats | null> {
  const out = {} as Record<MetricName, MetricStats | null>
  for (const [name, get] of Object.entries(SAMPLE_METRICS) as [SampleMetricName, (s: SampleRecord) => number | null][])
    out[name] = metricStats(samples.map(get))
  out.driverUtilPct = metricStats(driverUtilPct)
  return out
}
