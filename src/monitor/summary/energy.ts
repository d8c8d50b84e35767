/**
 * Energy over time windows, two ways. From the counter: the total-energy counter interpolated linearly at each
 * window boundary (readings come at least once a second, and at every stage change, so the boundary is never far
 * from a real reading); boundaries outside the readings are clamped to the nearest one. From power: the integral of
 * sampled power, each sample held until the next (the cross-check).
 */
import type { StageWindow } from '../stage-timeline.ts'

export interface TimedValue {
  tMs: number
  value: number
}

/** The counter at `tMs`, interpolated between the readings around it (sorted by tMs, at least one). */
export function counterAt(readings: readonly TimedValue[], tMs: number): number {
  const first = readings[0] as TimedValue
  const last = readings[readings.length - 1] as TimedValue
  if (tMs <= first.tMs) return first.value
  if (tMs >= last.tMs) return last.value
  let lo = 0
  let hi = readings.length - 1
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1
    if ((readings[mid] as TimedValue).tMs <= tMs) lo = mid
    else hi = mid
  }
  const a = readings[lo] as TimedValue
  const b = readings[hi] as TimedValue
  return b.tMs === a.tMs ? b.value : a.value + ((b.value - a.value) * (tMs - a.tMs)) / (b.tMs - a.tMs)
}

/** Joules over `windows` from an energy counter in mJ; null with fewer than two readings. */
export function counterEnergyJ(readingsMj: readonly TimedValue[], windows: readonly StageWindow[]): number | null {
  if (readingsMj.length < 2) return null
  let mj = 0
  for (const w of windows) mj += counterAt(readingsMj, w.endMs) - counterAt(readingsMj, w.startMs)
  return mj / 1000
}

/**
 * Joules over `windows` from power samples in mW (sorted by tMs), each held from its time to the next sample's;
 * before the first sample the first value holds. null without samples.
 */
export function powerEnergyJ(powerMw: readonly TimedValue[], windows: readonly StageWindow[]): number | null {
  if (powerMw.length === 0) return null
  let mwMs = 0
  for (const w of windows) {
    for (let i = 0; i < powerMw.length; i++) {
      const from = i === 0 ? Number.NEGATIVE_INFINITY : (powerMw[i] as TimedValue).tMs
      const to = i + 1 < powerMw.length ? (powerMw[i + 1] as TimedValue).tMs : Number.POSITIVE_INFINITY
      const overlap = Math.min(to, w.endMs) - Math.max(from, w.startMs)
      if (overlap > 0) mwMs += (powerMw[i] as TimedValue).value * overlap
    }
  }
  return mwMs / 1e6
}
