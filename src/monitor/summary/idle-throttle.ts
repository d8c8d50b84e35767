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
 * Where a GPU sat idle inside a set of windows. Start-up (before the first busy sample: process and CUDA start, model
 * build, loader start) and the gaps between busy samples (the GPU waiting between batches) have different causes and
 * cures, so they are kept apart; the longest run of either kind is kept too.
 */
export interface IdleProfile {
  /** Longest run of consecutive idle samples anywhere in the windows. */
  longest: IdleRun | null
  /** Longest idle run with a busy sample before and after it in the same window: a gap between pieces of work. */
  longestInner: IdleRun | null
  /** Longest time from a window's start to its first busy sample; a window with none counts whole; null without
   *  utilization readings. */
  leadingMs: number | null
  /**
   * From each window's first busy sample to its last, summed over the windows: how long the GPU worked on the stage,
   * its start-up before and its drain after left out (a rate's source where the pipeline logs none:
   * src/capacity/rates.ts). Sampled: each end is known to one interval. Null without a busy sample.
   */
  busySpanMs: number | null
}

/**
 * The idle runs (consecutive samples below IDLE_UTIL_PCT) of samples sorted by tMs, all inside `windows`; a sample
 * without a utilization reading ends a run. Ties keep the earlier run.
 */
export function idleProfile(samples: readonly SampleRecord[], windows: readonly StageWindow[]): IdleProfile {
  const profile: IdleProfile = { longest: null, longestInner: null, leadingMs: null, busySpanMs: null }
  for (const w of windows) {
    const inside = samples.filter((s) => s.tMs >= w.startMs && s.tMs < w.endMs)
    let runStart = -1
    let sawBusy = false
    let busyBeforeRun = false
    // The window's busy span grows by the time from one busy sample to the next: first to last, in one pass.
    let lastBusyMs = 0
    for (let i = 0; i <= inside.length; i++) {
      const s = inside[i]
      const idle = s !== undefined && s.utilPct !== null && s.utilPct < IDLE_UTIL_PCT
      const busy = s !== undefined && s.utilPct !== null && !idle
      if (busy && !sawBusy) {
        sawBusy = true
        lastBusyMs = s.tMs
        profile.leadingMs = Math.max(profile.leadingMs ?? 0, s.tMs - w.startMs)
      }
      if (busy) {
        profile.busySpanMs = (profile.busySpanMs ?? 0) + s.tMs - lastBusyMs
        lastBusyMs = s.tMs
      }
      if (idle && runStart < 0) {
        runStart = i
        busyBeforeRun = sawBusy
      }
      if (idle || runStart < 0) continue
      const first = inside[runStart] as SampleRecord
      const run = { samples: i - runStart, startMs: first.tMs, durationMs: (s?.tMs ?? w.endMs) - first.tMs }
      if (!profile.longest || run.samples > profile.longest.samples) profile.longest = run
      // Inner: work before it (a busy sample earlier in the window) and after it (this sample is busy).
      if (busyBeforeRun && busy && (!profile.longestInner || run.samples > profile.longestInner.samples))
        profile.longestInner = run
      runStart = -1
    }
    if (!sawBusy && inside.some((x) => x.utilPct !== null))
      profile.leadingMs = Math.max(profile.leadingMs ?? 0, w.endMs - w.startMs)
  }
  return profile
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
