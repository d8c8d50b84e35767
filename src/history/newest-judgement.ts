/**
 * The newest run of one series against its last stable window (the points after the last change point, less the one
 * or two just before the newest that a change could still start at), by the regression gate's own rule
 * (src/measure/compare-metrics.ts: Mann-Whitney and the threshold): by runs where the history stores them, else by
 * points. How many points since the onset regressed says whether the gate fails on it (NEWEST_CONFIRM_POINTS) or only
 * suspects it (changes.ts). Pure.
 */
import { type ChangePoint, MIN_SIDE_POINTS } from '../measure/change-points.ts'
import { compareMetrics, type MetricComparison } from '../measure/compare-metrics.ts'
import type { Better } from './metric-names.ts'
import type { SampleReader, Series } from './read.ts'

/**
 * At most this many points of the stable window are the baseline of the newest-run judgement: the recent level, and a
 * bounded bootstrap (a 10,000-point window would cost seconds and say nothing more about the last few runs).
 */
export const STABLE_WINDOW_MAX_POINTS = 50
/**
 * Runs a side for the newest-run judgement. The gate's default of 4 exists because 3 runs against 3 cannot reach
 * p < 0.05 (regression.ts); against a window of tens of runs, 3 runs can (p down to 2 / C(n + 3, 3)), and 3 runs a
 * night is the suites' default.
 */
export const NEWEST_MIN_RUNS = 3
/**
 * Points that must regress against the window (the newest and the unconfirmed ones just before it) before the gate
 * fails on it. Runs of one night share the host's state of that night, so the pooled-runs test understates the
 * night-to-night spread: on one H200 VM a quiet night's DNABERT-S rate read -12.7% against the nights before it
 * (all 3 runs below 8 of the window's 9, p 0.018) and came back the next night (docs/VALIDATION.md, history; the
 * detail in docs/results/2026-11-25-gpu/README.md). Two such nights by chance in one series are rare; a real slowdown
 * regresses every night.
 */
export const NEWEST_CONFIRM_POINTS = 2

export interface SeriesKey {
  metric: string
  /** The record id the series follows (read.ts Series says why it is part of the key). */
  recordId: string
  unit: string | null
  better: Better
  host: string
  gpuModel: string
}

export type NewestJudgement = SeriesKey & {
  commit: string
  /** Where the baseline starts (the last change point's after-side key), or null when the series never changed. */
  windowFrom: string | null
  /**
   * Where a regression here starts: the commits either side of the first point that regressed (the newest, or an
   * unconfirmed point a night or two before it that regressed against the same window).
   */
  onsetFrom: string
  onsetTo: string
  /** What was compared: each side's runs (stored samples), or the points' values where the runs are not stored. */
  basis: 'runs' | 'points'
  comparison: MetricComparison
  /** Points from the onset on that regressed against the window, the newest included (0 when it did not regress). */
  pointsRegressed: number
}

export const keyOf = (s: Series): Omit<SeriesKey, 'better'> => ({
  metric: s.metric.name,
  recordId: s.recordId,
  unit: s.metric.unit,
  host: s.host,
  gpuModel: s.gpuModel,
})

/**
 * Points just before the newest that a change could still start at without being confirmable (a change needs
 * MIN_SIDE_POINTS a side): left out of the window, so a slowdown that landed a night or two ago is not part of the
 * level the newest run is judged against, and is found as the start of the regression instead.
 */
const UNCONFIRMED_TAIL_POINTS = MIN_SIDE_POINTS - 1

export interface Judging {
  seed: string
  samplesOf: SampleReader | undefined
  threshold: number
  key: SeriesKey
}

function compare(candidate: readonly number[], baseline: readonly number[], j: Judging): MetricComparison {
  const { key } = j
  const name = `${key.metric} (${key.recordId}) @ ${key.host} / ${key.gpuModel}`
  const direction = key.better === 'lower' ? 'lower-is-better' : 'higher-is-better'
  const metric = { name, candidate, baseline, threshold: j.threshold, direction } as const
  return compareMetrics([metric], { seed: j.seed, minRunsPerSide: NEWEST_MIN_RUNS })[0]!
}

const runsOf = (s: Series, from: number, to: number, j: Judging) => {
  const runs: number[] = []
  for (let i = from; i < to; i++) runs.push(...(j.samplesOf?.(s, i) ?? []))
  return runs
}

/**
 * The newest point's runs against the runs of up to STABLE_WINDOW_MAX_POINTS points after the last change, the
 * unconfirmed tail left out; a regression starts at the earliest tail point that regressed against the same window.
 */
function judgeByRuns(s: Series, changes: readonly ChangePoint[], j: Judging, candidate: number[]) {
  const start = s.values.length - 1
  const lastChange = changes.filter((c) => c.index < start).at(-1)?.index ?? 0
  let tailStart = Math.max(lastChange, start - UNCONFIRMED_TAIL_POINTS)
  // A window too short to leave the tail out keeps it (the first nights of a history).
  if (tailStart - Math.max(lastChange, tailStart - STABLE_WINDOW_MAX_POINTS) < NEWEST_MIN_RUNS) tailStart = start
  const windowStart = Math.max(lastChange, tailStart - STABLE_WINDOW_MAX_POINTS)
  const baseline = runsOf(s, windowStart, tailStart, j)
  if (baseline.length === 0) return null
  const comparison = compare(candidate, baseline, j)
  let onset = start
  let pointsRegressed = comparison.verdict === 'regressed' ? 1 : 0
  if (pointsRegressed > 0)
    for (let i = tailStart; i < start; i++) {
      const runs = j.samplesOf?.(s, i) ?? []
      if (runs.length > 0 && compare(runs, baseline, j).verdict === 'regressed') {
        if (onset === start) onset = i
        pointsRegressed++
      }
    }
  return { basis: 'runs' as const, windowStart, lastChange, onset, comparison, pointsRegressed }
}

/**
 * Without stored runs: the newest commit's trailing points against the window's points (several nights of one
 * commit).
 */
function judgeByPoints(s: Series, changes: readonly ChangePoint[], j: Judging) {
  const keys = s.records.map((r) => r.commit)
  let start = keys.length - 1
  while (start > 0 && keys[start - 1] === keys.at(-1)) start--
  const lastChange = changes.filter((c) => c.index < start).at(-1)?.index ?? 0
  const windowStart = Math.max(lastChange, start - STABLE_WINDOW_MAX_POINTS)
  if (windowStart >= start) return null
  const comparison = compare(s.values.slice(start), s.values.slice(windowStart, start), j)
  // Every candidate point is a night of the newest commit (the test needs 3 of them): a regression here is confirmed.
  const pointsRegressed = comparison.verdict === 'regressed' ? keys.length - start : 0
  return { basis: 'points' as const, windowStart, lastChange, onset: start, comparison, pointsRegressed }
}

/** The newest run's point of `s` against its last stable window: by runs where stored, else by points. */
export function judgeNewest(s: Series, changes: readonly ChangePoint[], j: Judging): NewestJudgement | null {
  const candidate = j.samplesOf?.(s, s.values.length - 1)
  const judged = candidate?.length ? judgeByRuns(s, changes, j, candidate) : judgeByPoints(s, changes, j)
  if (!judged) return null
  const keys = s.records.map((r) => r.commit)
  return {
    ...j.key,
    commit: keys.at(-1)!,
    windowFrom: judged.lastChange > 0 ? keys[judged.lastChange]! : null,
    onsetFrom: keys[judged.onset - 1] ?? keys[judged.onset]!,
    onsetTo: keys[judged.onset]!,
    basis: judged.basis,
    comparison: judged.comparison,
    pointsRegressed: judged.pointsRegressed,
  }
}
