/**
 * What changed over the history, series by series (one metric on one host + GPU model, in createdAt order): the change
 * points the detector (src/measure/change-points.ts) finds with the commits as keys, the other metrics of the same
 * machine that moved at the same commit range, and the newest commit's points judged against the last stable window
 * (the points after the last change point) by the regression gate's own rule (src/measure/compare-metrics.ts). Pure:
 * series in, report out.
 */
import { type ChangePoint, detectChangePoints } from '../measure/change-points.ts'
import { compareMetrics, type MetricComparison } from '../measure/compare-metrics.ts'
import { DEFAULT_TIME_THRESHOLD } from '../measure/regression.ts'
import { createRandomSource } from '../measure/rng.ts'
import type { Better } from './metric-names.ts'
import type { Series } from './read.ts'

/**
 * At most this many points of the stable window are the baseline of the newest-commit judgement: the recent level,
 * and a bounded bootstrap (a 10,000-point window would cost seconds and say nothing more about the last few runs).
 */
export const STABLE_WINDOW_MAX_POINTS = 50

export interface SeriesKey {
  metric: string
  /** The record id the series follows (read.ts Series says why it is part of the key). */
  recordId: string
  unit: string | null
  better: Better
  host: string
  gpuModel: string
}

export type SeriesChange = SeriesKey &
  ChangePoint & {
    /** Run IDs on either side of the change: the last before it, the first after it. */
    fromRun: string
    toRun: string
    /** Other metrics of the same machine with a change at the same commit range, with their relative change. */
    movedWith: { metric: string; relativeChange: number; regression: boolean }[]
  }

export type NewestJudgement = SeriesKey & {
  commit: string
  /** Where the baseline starts (the last change point's after-side key), or null when the series never changed. */
  windowFrom: string | null
  comparison: MetricComparison
}

export interface ChangesReport {
  /** The commit of the newest record in the series read: what `exit 1` is about. */
  newestCommit: string | null
  newestRun: string | null
  seriesJudged: number
  /** Series not judged, with why (no direction for the unit, too few points). */
  notJudged: (Omit<SeriesKey, 'better'> & { reason: string })[]
  changes: SeriesChange[]
  newest: NewestJudgement[]
  /**
   * Series with a regression at the newest commit, and how it shows: a detected change whose after-side starts at the
   * newest commit, and/or the newest commit's points `regressed` against the last stable window.
   */
  regressionAtNewest: (SeriesKey & { how: ('change-point' | 'newest-vs-window')[] })[]
}

export interface ChangesOptions {
  /** Smallest relative change that counts; default: each series' newest thresholds.regression.timeThreshold. */
  minRelativeEffect?: number
  seed?: string
}

const keyOf = (s: Series): Omit<SeriesKey, 'better'> => ({
  metric: s.metric.name,
  recordId: s.recordId,
  unit: s.metric.unit,
  host: s.host,
  gpuModel: s.gpuModel,
})

/** The newest commit's trailing points against up to STABLE_WINDOW_MAX_POINTS points after the last change before them. */
function judgeNewest(s: Series, key: SeriesKey, changes: readonly ChangePoint[], threshold: number, seed: string) {
  const keys = s.records.map((r) => r.commit)
  const commit = keys.at(-1)!
  let start = keys.length - 1
  while (start > 0 && keys[start - 1] === commit) start--
  const last = changes.filter((c) => c.index < start).at(-1)
  const windowStart = Math.max(last?.index ?? 0, start - STABLE_WINDOW_MAX_POINTS)
  const baseline = s.values.slice(windowStart, start)
  if (baseline.length === 0) return null
  const name = `${key.metric} (${key.recordId}) @ ${key.host} / ${key.gpuModel}`
  const direction = key.better === 'lower' ? 'lower-is-better' : 'higher-is-better'
  const metric = { name, candidate: s.values.slice(start), baseline, threshold, direction } as const
  const [comparison] = compareMetrics([metric], { seed })
  return { ...key, commit, windowFrom: last ? last.toKey : null, comparison: comparison! }
}

/** Links each change to the other metrics of its machine that changed at the same commit range. */
function linkMovedWith(changes: SeriesChange[]): void {
  const groups = new Map<string, SeriesChange[]>()
  for (const c of changes) {
    const at = `${c.host}\u0000${c.gpuModel}\u0000${c.fromKey}\u0000${c.toKey}`
    groups.set(at, [...(groups.get(at) ?? []), c])
  }
  for (const group of groups.values())
    for (const c of group)
      c.movedWith = group
        .filter((o) => o !== c)
        .map((o) => ({ metric: o.metric, relativeChange: o.relativeChange, regression: o.regression }))
}

/**
 * Change points and the newest-commit judgement of every series.
 * @throws MeasureInputError (from the detector or the gate) only for values they cannot take; a series whose baseline
 * median is not positive is listed as not judged instead.
 */
export function analyzeChanges(series: readonly Series[], options: ChangesOptions = {}): ChangesReport {
  const seed = options.seed ?? 'virnucpro-bench/history'
  const newestRef = series
    .flatMap((s) => (s.records.length ? [s.records.at(-1)!] : []))
    .reduce<Series['records'][number] | null>((a, b) => (a === null || b.createdAt > a.createdAt ? b : a), null)
  const report: ChangesReport = {
    newestCommit: newestRef?.commit ?? null,
    newestRun: newestRef?.runId ?? null,
    seriesJudged: 0,
    notJudged: [],
    changes: [],
    newest: [],
    regressionAtNewest: [],
  }
  for (const s of series) {
    const better = s.metric.better
    if (better === null) {
      report.notJudged.push({ ...keyOf(s), reason: `no better direction for unit '${s.metric.unit ?? ''}'` })
      continue
    }
    const key: SeriesKey = { ...keyOf(s), better }
    const threshold = options.minRelativeEffect ?? s.records.at(-1)?.regressionThreshold ?? DEFAULT_TIME_THRESHOLD
    const keys = s.records.map((r) => r.commit)
    const random = createRandomSource(`${seed}/${key.metric}/${key.recordId}/${key.host}/${key.gpuModel}`)
    const points = detectChangePoints(s.values, keys, { minRelativeEffect: threshold, better, random })
    report.seriesJudged++
    const how: ('change-point' | 'newest-vs-window')[] = []
    for (const p of points) {
      const fromRun = s.records[p.index - 1]?.runId ?? ''
      report.changes.push({ ...key, ...p, fromRun, toRun: s.records[p.index]?.runId ?? '', movedWith: [] })
      if (p.regression && p.toKey === report.newestCommit) how.push('change-point')
    }
    try {
      const judged = judgeNewest(s, key, points, threshold, seed)
      if (judged) report.newest.push(judged)
      if (judged?.comparison.verdict === 'regressed' && judged.commit === report.newestCommit)
        how.push('newest-vs-window')
    } catch (error) {
      report.notJudged.push({ ...keyOf(s), reason: `newest commit not judged: ${(error as Error).message}` })
    }
    if (how.length > 0) report.regressionAtNewest.push({ ...key, how })
  }
  linkMovedWith(report.changes)
  return report
}
