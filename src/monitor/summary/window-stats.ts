/** Everything the summary says about one GPU over one set of time windows (the whole run, or one stage). */
import type { DriverUtilRecord, SampleRecord } from '../records.ts'
import type { StageWindow } from '../stage-timeline.ts'
import { counterEnergyJ, powerEnergyJ, type TimedValue } from './energy.ts'
import { countThrottle, IDLE_UTIL_PCT, type IdleRun, idleProfile, type ThrottleCount } from './idle-throttle.ts'
import { allMetricStats, type MetricName, type MetricStats } from './metric-stats.ts'
import { type WorkFigures, type WorkSpan, workFigures } from './work-onset.ts'

/**
 * `workOnsetMs`, `workOnsetSource`, `workUtilPct` (work-onset.ts): where the GPU's work starts (its first batch, or
 * the first sample from which it stays busy) and its utilization from there: PERF-02's steady state without the
 * worker's start. Absent in summaries written before the monitor kept them.
 */
export interface GpuWindowStats extends WorkFigures {
  gpu: number
  sampleCount: number
  metrics: Record<MetricName, MetricStats | null>
  peakMemUsedBytes: number | null
  /** From the total-energy counter, interpolated at the window edges; null with fewer than two readings. */
  energyJ: number | null
  /** Cross-check: integral of sampled power. */
  energyFromPowerJ: number | null
  /** Longest idle stretch anywhere in the windows (start-up included). */
  longestIdle: IdleRun | null
  /** Longest idle stretch between two busy samples: the GPU waiting between pieces of work. */
  longestInnerIdle: IdleRun | null
  /** Time before the first busy sample (start-up); null without utilization readings. */
  leadingIdleMs: number | null
  /** From the first busy sample to the last, per window, summed (idle-throttle.ts IdleProfile); null without one. */
  busySpanMs: number | null
  /**
   * Mean utilization from each window's first busy sample on: the stage's steady state, start-up left out (PERF-02
   * splits the two: a stage can start slowly and then keep the GPU busy, or the reverse). Null without a busy sample.
   */
  steadyUtilPct: number | null
  throttle: ThrottleCount
}

/** One GPU's series, sorted by time, as the window statistics need them. */
export interface GpuSeries {
  gpu: number
  samples: SampleRecord[]
  energyMj: TimedValue[]
  powerMw: TimedValue[]
  driverUtil: DriverUtilRecord['samples']
}

export function inWindows(tMs: number, windows: readonly StageWindow[]): boolean {
  return windows.some((w) => tMs >= w.startMs && tMs < w.endMs)
}

/**
 * Statistics of `series` restricted to `windows` (a sample belongs to the window holding its tMs); `work`: where the
 * log bounds this GPU's work in them (null: the samples say where it starts).
 */
export function gpuWindowStats(
  series: GpuSeries,
  windows: readonly StageWindow[],
  work: WorkSpan | null = null,
): GpuWindowStats {
  const samples = series.samples.filter((s) => inWindows(s.tMs, windows))
  const driver = series.driverUtil.filter((d) => inWindows(d.tMs, windows)).map((d) => d.utilPct)
  const metrics = allMetricStats(samples, driver)
  const idle = idleProfile(samples, windows)
  return {
    gpu: series.gpu,
    sampleCount: samples.length,
    metrics,
    peakMemUsedBytes: metrics.memUsedBytes?.max ?? null,
    energyJ: counterEnergyJ(series.energyMj, windows),
    energyFromPowerJ: powerEnergyJ(series.powerMw, windows),
    longestIdle: idle.longest,
    longestInnerIdle: idle.longestInner,
    leadingIdleMs: idle.leadingMs,
    busySpanMs: idle.busySpanMs,
    steadyUtilPct: steadyUtil(samples, windows),
    ...workFigures(samples, windows, work),
    throttle: countThrottle(samples),
  }
}

/** Mean utilization of the samples at or after each window's first busy one (samples sorted by time). */
export function steadyUtil(samples: readonly SampleRecord[], windows: readonly StageWindow[]): number | null {
  let sum = 0
  let count = 0
  for (const w of windows) {
    let started = false
    for (const s of samples) {
      if (s.tMs < w.startMs || s.tMs >= w.endMs || s.utilPct === null) continue
      started ||= s.utilPct >= IDLE_UTIL_PCT
      if (!started) continue
      sum += s.utilPct
      count++
    }
  }
  return count === 0 ? null : sum / count
}
