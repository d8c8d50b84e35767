/**
 * Multi-GPU scaling: speedup T1 / TN and efficiency speedup / N, for the total and per stage, each with a percentile
 * bootstrap CI from resampling the 1-GPU runs and the N-GPU runs independently (they are independent runs).
 * Verdict against a band [low, high] (defaults from upstream's phase-6 bands; PERF-03 is its own band):
 * - fewer than `minRunsPerSide` runs a side -> `inconclusive`;
 * - CI entirely below `low` -> `fail`; CI reaching below `low` -> `inconclusive` (cannot tell yet);
 * - CI at or above `low` and the point estimate above `high` -> `flag` (superlinear: a look, e.g. for a cache effect or
 *   GPUs doing less work than they should; not a failure);
 * - otherwise `pass`.
 */
import { bootstrapRatioOfMedians, DEFAULT_RESAMPLES, percentileInterval } from './bootstrap.ts'
import { MeasureInputError } from './errors.ts'
import { median } from './estimators.ts'
import { createRandomSource, type RandomSource } from './rng.ts'
import { toSorted } from './samples.ts'

export interface ScalingBand {
  low: number
  high: number
}
export type ScalingVerdict = 'pass' | 'fail' | 'flag' | 'inconclusive'

/** Upstream's phase-6 bands by GPU count. */
export const DEFAULT_SCALING_BANDS: Readonly<Record<number, ScalingBand>> = {
  2: { low: 1.6, high: 2.0 },
  4: { low: 3.0, high: 4.0 },
  8: { low: 6.0, high: 8.0 },
}
/** PERF-03: the ESM-2 stage on 2 GPUs at least 1.9x (linear, 2.0x, is the top of its band). */
export const PERF03 = { stage: 'ESM-2 Feature Extraction', gpuCount: 2, band: { low: 1.9, high: 2.0 } } as const
export const DEFAULT_SCALING_MIN_RUNS = 3

export interface SpeedupOptions {
  /** Band to judge against; defaults to DEFAULT_SCALING_BANDS[gpuCount]. Null judges nothing (verdict inconclusive). */
  band?: ScalingBand | null
  level?: number
  resamples?: number
  minRunsPerSide?: number
  random?: RandomSource
}

export interface Interval {
  low: number
  high: number
  level: number
  method: 'bootstrap-percentile'
}

export interface SpeedupResult {
  gpuCount: number
  singleGpu: { n: number; medianMs: number }
  multiGpu: { n: number; medianMs: number }
  speedup: { estimate: number; ci: Interval | null }
  efficiency: { estimate: number; ci: Interval | null }
  band: ScalingBand | null
  verdict: ScalingVerdict
  reason: string
}

function judge(estimate: number, ci: Interval, band: ScalingBand | null): { verdict: ScalingVerdict; reason: string } {
  const shown = `speedup ${estimate.toFixed(3)} [${ci.low.toFixed(3)}, ${ci.high.toFixed(3)}]`
  if (band === null) return { verdict: 'inconclusive', reason: `${shown}: no band to judge against` }
  // An open-ended band (no ceiling, as "not slower than the baseline") reads as a floor.
  const range = band.high >= Number.MAX_VALUE ? `floor ${band.low}x` : `band ${band.low}-${band.high}`
  if (ci.high < band.low) return { verdict: 'fail', reason: `${shown}: CI below ${range}` }
  if (ci.low < band.low) return { verdict: 'inconclusive', reason: `${shown}: CI straddles the bottom of ${range}` }
  if (estimate > band.high) return { verdict: 'flag', reason: `${shown}: superlinear, above ${range}; worth a look` }
  return { verdict: 'pass', reason: `${shown}: within ${range}` }
}

/**
 * Speedup of N GPUs over 1 GPU from repeated wall times (ms) of each.
 * @throws MeasureInputError when a time is not finite or not positive, or gpuCount is not an integer >= 1.
 */
export function speedup(
  singleGpuMs: readonly number[],
  multiGpuMs: readonly number[],
  gpuCount: number,
  options: SpeedupOptions = {},
): SpeedupResult {
  if (!Number.isInteger(gpuCount) || gpuCount < 1) {
    throw new MeasureInputError('gpuCount', `must be an integer >= 1, got ${gpuCount}`)
  }
  const t1 = toSorted(singleGpuMs, 'single-GPU times')
  const tn = toSorted(multiGpuMs, `${gpuCount}-GPU times`)
  if ((t1[0] as number) <= 0 || (tn[0] as number) <= 0) throw new MeasureInputError('times', 'must all be positive')
  const band = options.band === undefined ? (DEFAULT_SCALING_BANDS[gpuCount] ?? null) : options.band
  const estimate = median(t1) / median(tn)
  const base = {
    gpuCount,
    singleGpu: { n: t1.length, medianMs: median(t1) },
    multiGpu: { n: tn.length, medianMs: median(tn) },
    band,
  }
  const minRuns = options.minRunsPerSide ?? DEFAULT_SCALING_MIN_RUNS
  if (t1.length < minRuns || tn.length < minRuns) {
    const reason = `too few runs: 1 GPU ${t1.length}, ${gpuCount} GPUs ${tn.length} (need >= ${minRuns} a side)`
    const point = { speedup: { estimate, ci: null }, efficiency: { estimate: estimate / gpuCount, ci: null } }
    return { ...base, ...point, verdict: 'inconclusive', reason }
  }
  const level = options.level ?? 0.95
  const random = options.random ?? createRandomSource()
  const replicates = bootstrapRatioOfMedians(t1, tn, options.resamples ?? DEFAULT_RESAMPLES, random)
  const ci: Interval = { ...percentileInterval(replicates, level), level, method: 'bootstrap-percentile' }
  const efficiencyCi: Interval = { ...ci, low: ci.low / gpuCount, high: ci.high / gpuCount }
  const point = { speedup: { estimate, ci }, efficiency: { estimate: estimate / gpuCount, ci: efficiencyCi } }
  return { ...base, ...point, ...judge(estimate, ci, band) }
}
