/**
 * What changed over the history, series by series (one metric of one record id on one host + GPU model, in createdAt
 * order): the change points the detector (src/measure/change-points.ts) finds with the commits as keys, the other
 * metrics of the same machine that moved at the same commit range, and what the newest run brings to light, which is
 * what a nightly gate fails on (`regressions`):
 * - a regression change point that the newest run confirms: found with it, not found in the history before it. A
 *   change needs 3 points a side, so a slowdown that lands tonight is confirmed a few nights on, and then the change
 *   names its commit range;
 * - the newest run regressed against the last stable window (the points after the last change, less the one or two
 *   just before the newest that a change could still start at; newest-judgement.ts), by the regression gate's own
 *   rule (src/measure/compare-metrics.ts: Mann-Whitney and the threshold) over runs: the newest point's runs against
 *   the window points' runs, where the history holds them (wall time, J/seq, stage rates), confirmed by a second point
 *   (NEWEST_CONFIRM_POINTS). A night brings one point per series, and one point cannot be tested; its runs can. The
 *   night a slowdown lands it is a suspect (`suspects`: reported, not failed on); the next night that regresses
 *   against the same window fails the gate, naming the commits where it started, until the change point is confirmed.
 * Pure: series in (and a reader of their runs), report out.
 */
import { type ChangePoint, detectChangePoints } from '../measure/change-points.ts'
import { DEFAULT_TIME_THRESHOLD } from '../measure/regression.ts'
import { createRandomSource } from '../measure/rng.ts'
import { judgeNewest, keyOf, NEWEST_CONFIRM_POINTS, type NewestJudgement, type SeriesKey } from './newest-judgement.ts'
import type { SampleReader, Series } from './read.ts'

export type { NewestJudgement, SeriesKey } from './newest-judgement.ts'

/**
 * How far back the newest point can move a change: the detector looks at 30 points a side of a split and searches
 * windows of 60 (change-points.ts), so a change more than two windows back is the same with or without it.
 */
const RECENT_POINTS = 120

export type SeriesChange = SeriesKey &
  ChangePoint & {
    /** Run IDs on either side of the change: the last before it, the first after it. */
    fromRun: string
    toRun: string
    /** True when the newest run confirms it: found with the newest run's point, not without it. */
    confirmedByNewest: boolean
    /** Other metrics of the same machine with a change at the same commit range, with their relative change. */
    movedWith: { metric: string; relativeChange: number; regression: boolean }[]
  }

/** One regression the newest run brings to light, with the commit range to look in. */
export type Regression = SeriesKey & {
  how: 'change-point' | 'newest-vs-window'
  fromCommit: string
  toCommit: string
  relativeChange: number
  /** newest-vs-window: the points that regressed against the window since the onset, the newest included. */
  pointsRegressed?: number
}

export interface ChangesReport {
  /** The commit and run ID of the newest record in the series read: what the gate is about. */
  newestCommit: string | null
  newestRun: string | null
  seriesJudged: number
  /** Series not judged, with why (no direction for the unit, too few points). */
  notJudged: (Omit<SeriesKey, 'better'> & { reason: string })[]
  changes: SeriesChange[]
  /** The newest run's point of each series that has one, against its last stable window. */
  newest: NewestJudgement[]
  /** What a CI gate fails on (exit 1 of `history changes`): see the file's comment. */
  regressions: Regression[]
  /**
   * The newest run regressed against the last stable window on its own (no point before it did): reported, not failed
   * on, until a second point confirms it (NEWEST_CONFIRM_POINTS).
   */
  suspects: Regression[]
}

export interface ChangesOptions {
  /** Smallest relative change that counts; default: each series' newest thresholds.regression.timeThreshold. */
  minRelativeEffect?: number
  seed?: string
  /** Reads a point's runs; without it (or where none are stored) the newest run is judged by point values. */
  samplesOf?: SampleReader
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

/** One change seen twice: the same way, at the same commit range or one commit off (more points can move it by one). */
const sameChange = (a: ChangePoint, b: ChangePoint) =>
  a.regression === b.regression && (a.toKey === b.toKey || a.toKey === b.fromKey || a.fromKey === b.toKey)

function newestRef(series: readonly Series[]): Series['records'][number] | null {
  let newest: Series['records'][number] | null = null
  for (const s of series) {
    const last = s.records.at(-1)
    if (last && (newest === null || last.createdAt > newest.createdAt)) newest = last
  }
  return newest
}

/**
 * Change points, the newest-run judgement and the gate's regressions of every series.
 * @throws MeasureInputError (from the detector) only for values it cannot take; a series whose newest run cannot be
 * judged (a baseline median that is not positive) is listed as not judged instead.
 */
export function analyzeChanges(series: readonly Series[], options: ChangesOptions = {}): ChangesReport {
  const seed = options.seed ?? 'virnucpro-bench/history'
  const newest = newestRef(series)
  const report: ChangesReport = {
    newestCommit: newest?.commit ?? null,
    newestRun: newest?.runId ?? null,
    seriesJudged: 0,
    notJudged: [],
    changes: [],
    newest: [],
    regressions: [],
    suspects: [],
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
    const detect = (values: readonly number[], upTo: number) =>
      detectChangePoints(values.slice(0, upTo), keys.slice(0, upTo), {
        minRelativeEffect: threshold,
        better,
        random: createRandomSource(`${seed}/${key.metric}/${key.recordId}/${key.host}/${key.gpuModel}`),
      })
    const points = detect(s.values, s.values.length)
    report.seriesJudged++
    const hasNewest = s.records.at(-1)?.runId === report.newestRun
    // Only a change near the end can be one the newest point made; the history before it is analysed again only then.
    const recent = points.some((p) => p.index >= s.values.length - RECENT_POINTS)
    const before = hasNewest && recent ? detect(s.values, s.values.length - 1) : points
    for (const p of points) {
      const confirmedByNewest = hasNewest && !before.some((b) => sameChange(b, p))
      const toRun = s.records[p.index]?.runId ?? ''
      const fromRun = s.records[p.index - 1]?.runId ?? ''
      report.changes.push({ ...key, ...p, fromRun, toRun, confirmedByNewest, movedWith: [] })
      if (p.regression && confirmedByNewest) {
        const range = { fromCommit: p.fromKey, toCommit: p.toKey }
        report.regressions.push({ ...key, how: 'change-point', ...range, relativeChange: p.relativeChange })
      }
    }
    if (!hasNewest) continue
    try {
      const judged = judgeNewest(s, points, { seed, samplesOf: options.samplesOf, threshold, key })
      if (!judged) continue
      report.newest.push(judged)
      const { verdict, ratio } = judged.comparison
      if (verdict === 'regressed') {
        const confirmed = judged.pointsRegressed >= NEWEST_CONFIRM_POINTS
        ;(confirmed ? report.regressions : report.suspects).push({
          ...key,
          how: 'newest-vs-window',
          fromCommit: judged.onsetFrom,
          toCommit: judged.onsetTo,
          relativeChange: (ratio?.estimate ?? 1) - 1,
          pointsRegressed: judged.pointsRegressed,
        })
      }
    } catch (error) {
      report.notJudged.push({ ...keyOf(s), reason: `newest run not judged: ${(error as Error).message}` })
    }
  }
  linkMovedWith(report.changes)
  return report
}
