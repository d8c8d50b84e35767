/** Idle gaps and throttling over one GPU's samples in one set of windows. */
import {
  CLOCK_EVENT_REASONS,
  type ClockEventReason,
  decodeClockEventReasons,
  isTimingSuspect,
} from '../../nvml/clock-reasons.ts'
import type { SampleRecord } from '../records.ts'
import type { StageWindow } from '../stage-timeline.ts'

/** Below this utilization a sample counts as idle (the 10%). */
export const IDLE_UTIL_PCT = 10

export interface IdleRun {
  /** Consecutive idle samples. */
  samples: number
  startMs: number
  /** From the first idle sample to the next sample (or the window's end when the run reaches it). */
  durationMs: number
}

/**
 * The longest run of consecutive samples below IDLE_UTIL_PCT inside one window (samples sorted by tMs, all inside
 * `windows`); a sample without a utilization reading ends a run. Ties keep the earlier run. null when none is idle.
 */
export function longestIdleRun(samples: readonly SampleRecord[], windows: readonly StageWindow[]): IdleRun | null {
  let best: IdleRun | null = null
  for (const w of windows) {
    const inside = samples.filter((s) => s.tMs >= w.startMs && s.tMs < w.endMs)
    let runStart = -1
    for (let i = 0; i <= inside.length; i++) {
      const s = inside[i]
      const idle = s !== undefined && s.utilPct !== null && s.utilPct < IDLE_UTIL_PCT
      if (idle && runStart < 0) runStart = i
      if (idle || runStart < 0) continue
      const first = inside[runStart] as SampleRecord
      const run = { samples: i - runStart, startMs: first.tMs, durationMs: (s?.tMs ?? w.endMs) - first.tMs }
      if (!best || run.samples > best.samples) best = run
      runStart = -1
    }
  }
  return best
}

export interface ThrottleCount {
  /** Samples with HW slowdown, SW/HW thermal or the power brake set: their timing is suspect. */
  samples: number
  /** How many samples had each of those reasons. */
  reasons: Partial<Record<ClockEventReason, number>>
}

/** Counts samples whose clock-event reasons make timing suspect, and which reasons they were. */
export function countThrottle(samples: readonly SampleRecord[]): ThrottleCount {
  const count: ThrottleCount = { samples: 0, reasons: {} }
  for (const sample of samples) {
    const mask = sample.clockEventReasons
    if (mask === null || !isTimingSuspect(mask)) continue
    count.samples++
    for (const reason of decodeClockEventReasons(mask)) {
      if (!isTimingSuspect(CLOCK_EVENT_REASONS[reason])) continue
      count.reasons[reason] = (count.reasons[reason] ?? 0) + 1
    }
  }
  return count
}
