/**
 * How long what is left should take, from the runs this invocation measured (and the runs a continuation got back
 * from its journal): each run still planned at the mean wall time of its own file and arm, since runs of one arm
 * differ little while arms differ a lot (a 4,000-sequence size takes four times a 1,000 one). An arm not run yet
 * borrows from its measurement's other arms, then its file's, then any run of the invocation; with no run at all there
 * is nothing honest to say, and the forecast is null. Files not started yet bring their own forecast (from an earlier
 * invocation under the same key: earlier-progress.ts) or none, which makes the time left a lower bound.
 */
import type { RunPhase } from './run-events.ts'
import { armRunsLeft, type Tally, wallKey } from './tally.ts'

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length

/** Every wall time of the tally whose `file\0arm` key passes `keep`, warm-ups and runs alike. */
function wallsWhere(t: Tally, keep: (key: string) => boolean): number[] {
  return [...t.wallsMs].filter(([key]) => keep(key)).flatMap(([, w]) => [...w['warm-up'], ...w.run])
}

/**
 * The wall time (ms) one more run of `arm` in `phase` should take, or null when the invocation has measured nothing
 * to go by. A warm-up goes by the arm's warm-ups first (a cold first process is slower), a run by its runs.
 */
export function runEstimateMs(
  t: Tally,
  at: { file: string; measurement: string; arm: string; phase: RunPhase },
): number | null {
  const own = t.wallsMs.get(wallKey(at.file, at.arm))
  const ownRuns = mean(own?.run ?? [])
  const ownWarmups = mean(own?.['warm-up'] ?? [])
  const byArm = at.phase === 'warm-up' ? (ownWarmups ?? ownRuns) : (ownRuns ?? ownWarmups)
  if (byArm !== null) return byArm
  const arms = new Set([...(t.measurements.get(at.measurement)?.arms.keys() ?? [])].map((a) => wallKey(at.file, a)))
  return (
    mean(wallsWhere(t, (key) => arms.has(key))) ??
    mean(wallsWhere(t, (key) => key.startsWith(`${at.file}\u0000`))) ??
    mean(wallsWhere(t, () => true))
  )
}

/**
 * ms the runs planned so far and not ended should take, at `nowMs` (the run in flight counts what it has left of its
 * estimate); null when one of them has no estimate (nothing measured yet).
 */
export function runsLeftMs(t: Tally, nowMs: number): number | null {
  let total = 0
  for (const [measurement, m] of t.measurements) {
    if (m.stopped) continue
    for (const arm of m.arms.values()) {
      const left = armRunsLeft(arm)
      for (const phase of ['warm-up', 'run'] as const) {
        if (left[phase] === 0) continue
        const estimate = runEstimateMs(t, { file: m.file, measurement, arm: arm.label, phase })
        if (estimate === null) return null
        total += left[phase] * estimate
      }
    }
  }
  const flight = t.inFlight
  if (flight) {
    const estimate = runEstimateMs(t, flight)
    if (estimate !== null) total -= Math.min(estimate, Math.max(0, nowMs - flight.sinceMs))
  }
  return Math.max(0, total)
}

/** A file of the invocation not started yet, and what an earlier invocation says it takes (null: nothing known). */
export interface FileAhead {
  file: string
  forecastMs: number | null
}

export interface TimeLeft {
  /** ms left, or null when the runs planned have no estimate yet. */
  leftMs: number | null
  /** True when a file not started has no forecast: the time left is at least `leftMs`. */
  atLeast: boolean
}

/** The invocation's time left: its planned runs, and the files not started yet. */
export function timeLeft(t: Tally, nowMs: number, ahead: readonly FileAhead[]): TimeLeft {
  const runs = runsLeftMs(t, nowMs)
  const known = ahead.reduce((sum, f) => sum + (f.forecastMs ?? 0), 0)
  return { leftMs: runs === null ? null : runs + known, atLeast: ahead.some((f) => f.forecastMs === null) }
}
