import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { analyzeChanges, type ChangesReport } from '../../src/history/changes.ts'
import type { HistoryRunInput } from '../../src/history/entry.ts'
import { readSeries, sampleReader } from '../../src/history/read.ts'
import { HistoryStore } from '../../src/history/store.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { type SyntheticOptions, syntheticCommit, syntheticHistory } from './support/synthetic-history.ts'

const root = tempDirUntilFileEnd('history-changes-')
let count = 0
const freshStore = () => HistoryStore.open(join(root, `h${++count}.sqlite`), { create: true })
const judge = (store: HistoryStore, minRelativeEffect?: number) =>
  analyzeChanges(readSeries(store), { minRelativeEffect, samplesOf: sampleReader(store) })

function analyze(options: SyntheticOptions, minRelativeEffect?: number) {
  using store = freshStore()
  store.addRuns(syntheticHistory(options))
  return judge(store, minRelativeEffect)
}

/** The gate's findings as [metric, how, from commit, to commit]. */
const gate = (r: ChangesReport) => r.regressions.map((g) => [g.metric, g.how, g.fromCommit, g.toCommit])
/** What it reports without failing, the same way. */
const suspected = (r: ChangesReport) => r.suspects.map((g) => [g.metric, g.how, g.fromCommit, g.toCommit])

/** One night's every value and run `factor` times slower. */
function slower(run: HistoryRunInput, factor: number): void {
  for (const m of run.records[0]!.metrics) {
    m.value *= factor
    m.samples = m.samples!.map((v) => v * factor)
  }
}

/** The nightly job over `runs`: each added to a fresh history, then judged. */
function nightByNight(runs: readonly HistoryRunInput[]): ChangesReport[] {
  using store = freshStore()
  return runs.map((run) => {
    store.addRun(run)
    return judge(store)
  })
}

describe('history changes over a synthetic history (1% noise, 3 runs a point, one point a commit)', () => {
  test('a planted 10% step at commit 25 of 40 is found there, in both metrics that moved, and nowhere else', () => {
    const step = { metrics: ['synthetic/m0', 'synthetic/m1'], atRun: 25, factor: 1.1 }
    const report = analyze({ runs: 40, metrics: 3, step })
    expect(report.changes.map((c) => [c.metric, c.index, c.fromKey, c.toKey])).toEqual([
      ['synthetic/m0', 25, syntheticCommit(24), syntheticCommit(25)],
      ['synthetic/m1', 25, syntheticCommit(24), syntheticCommit(25)],
    ])
    const [m0] = report.changes
    expect(m0).toMatchObject({ regression: true, fromRun: 'synthetic-000024', toRun: 'synthetic-000025' })
    expect(m0!.relativeChange).toBeCloseTo(0.1, 1)
    expect(m0!.pValue).toBeLessThan(0.05)
    expect(m0!.before).toMatchObject({ n: 25 })
    expect(m0!.after).toMatchObject({ n: 15 })
    expect(m0!.movedWith).toEqual([{ metric: 'synthetic/m1', relativeChange: expect.any(Number), regression: true }])
    // The step is 15 commits old: the newest run confirms nothing and is judged, by runs, against the level after it.
    expect(m0!.confirmedByNewest).toBe(false)
    expect(report.regressions).toEqual([])
    const judged = report.newest.find((j) => j.metric === 'synthetic/m0')!
    expect(judged).toMatchObject({ windowFrom: syntheticCommit(25), basis: 'runs' })
    expect(judged.comparison).toMatchObject({ verdict: 'unchanged', candidate: { n: 3 } })
  })

  test('night by night: a 15% slowdown is suspected the night it lands, fails the gate from the next night until a change point confirms it, naming its commits', () => {
    // The nightly job: add the night's run, judge, fail on any regression brought to light. 15%: the window judgement
    // is the gate's rule (the ratio's point estimate beyond 10%), which a step of exactly 10% passes half the time.
    const landsAt = 30
    const runs = syntheticHistory({
      runs: 40,
      metrics: 2,
      step: { metrics: ['synthetic/m0'], atRun: landsAt, factor: 1.15 },
    })
    using store = freshStore()
    const reports: ChangesReport[] = []
    for (const run of runs) {
      store.addRun(run)
      reports.push(judge(store))
    }
    const nights = reports.map(gate)
    const range = [syntheticCommit(landsAt - 1), syntheticCommit(landsAt)]
    expect(nights.slice(0, landsAt).flat()).toEqual([])
    expect(reports.slice(0, landsAt).flatMap(suspected)).toEqual([])
    // The night it lands: the newest run's runs against the window, one night, a suspect; the next night confirms it.
    expect(nights[landsAt]).toEqual([])
    expect(suspected(reports[landsAt]!)).toEqual([['synthetic/m0', 'newest-vs-window', ...range]])
    expect(reports[landsAt]!.suspects[0]!.pointsRegressed).toBe(1)
    expect(nights[landsAt + 1]).toEqual([['synthetic/m0', 'newest-vs-window', ...range]])
    expect(reports[landsAt + 1]!.regressions[0]!.pointsRegressed).toBe(2)
    const confirmed = nights.findIndex((n) => n.some((g) => g[1] === 'change-point'))
    expect(confirmed).toBeGreaterThanOrEqual(landsAt + 2)
    expect(confirmed).toBeLessThanOrEqual(landsAt + 4)
    expect(nights[confirmed]!.filter((g) => g[1] === 'change-point')).toEqual([
      ['synthetic/m0', 'change-point', ...range],
    ])
    for (const night of nights.slice(landsAt + 1, confirmed + 1)) {
      expect(night.length).toBeGreaterThan(0)
      for (const [metric, , from, to] of night) expect([metric, from, to]).toEqual(['synthetic/m0', ...range])
    }
    // Once confirmed, the new level is the window: green again, and the change stays in the list, no longer new.
    expect(nights.slice(confirmed + 1).flat()).toEqual([])
    expect(reports.slice(confirmed + 1).flatMap(suspected)).toEqual([])
    const last = judge(store)
    expect(last.changes.map((c) => [c.metric, c.toKey, c.confirmedByNewest])).toEqual([
      ['synthetic/m0', range[1], false],
    ])
  })

  test('a one-night spike is a suspect that night, never fails the gate, is no change point, and the next night is clean', () => {
    const runs = syntheticHistory({ runs: 30, metrics: 1 })
    slower(runs[25]!, 1.3)
    const nights = nightByNight(runs)
    expect(suspected(nights[25]!)).toEqual([
      ['synthetic/m0', 'newest-vs-window', syntheticCommit(24), syntheticCommit(25)],
    ])
    for (const night of nights) expect(night.regressions).toEqual([])
    for (const night of nights.slice(26)) expect(night.suspects).toEqual([])
    expect(nights.at(-1)!.changes).toEqual([])
  })

  test('two slow nights of the last three fail the gate, a clean night between them or not, naming where it started', () => {
    // Nights 25 and 27 14% slow, 26 at the old level (a night whose runs missed the slowdown, say): neither 25 nor 26
    // fails; 27 does, naming 24..25 (a change point or the window judgement: whichever sees it first).
    const runs = syntheticHistory({ runs: 28, metrics: 1 })
    for (const night of [25, 27]) slower(runs[night]!, 1.14)
    const nights = nightByNight(runs)
    expect(gate(nights[25]!)).toEqual([])
    expect(gate(nights[26]!)).toEqual([])
    expect(gate(nights[27]!).map(([metric, , from, to]) => [metric, from, to])).toEqual([
      ['synthetic/m0', syntheticCommit(24), syntheticCommit(25)],
    ])
  })

  test('without stored runs the newest commit is judged by its points: several nights of one commit', () => {
    const step = { metrics: ['synthetic/m0'], atRun: 35, factor: 1.1 }
    const report = analyze({ runs: 40, metrics: 2, step, commitOfRun: (run) => Math.min(run, 35), runsPerPoint: 0 })
    expect(report.newestCommit).toBe(syntheticCommit(35))
    const judged = report.newest.find((j) => j.metric === 'synthetic/m0')!
    expect(judged).toMatchObject({
      basis: 'points',
      comparison: { verdict: 'regressed', candidate: { n: 5 }, baseline: { n: 35 } },
    })
    expect(report.newest.find((j) => j.metric === 'synthetic/m1')!.comparison.verdict).toBe('unchanged')
    // Five runs of the newest commit: the change into it was confirmed by an earlier one (it is no longer new); the
    // points still regress against the window before it.
    expect(report.changes.map((c) => [c.metric, c.toKey, c.confirmedByNewest])).toEqual([
      ['synthetic/m0', syntheticCommit(35), false],
    ])
    expect(gate(report)).toEqual([['synthetic/m0', 'newest-vs-window', syntheticCommit(34), syntheticCommit(35)]])
  })

  test('an improvement is a change, not a regression; a step under --min-effect is no change', () => {
    const step = { metrics: ['synthetic/m0'], atRun: 20, factor: 0.85 }
    const found = analyze({ runs: 40, metrics: 1, step })
    expect(found.changes).toEqual([expect.objectContaining({ index: 20, regression: false })])
    expect(found.regressions).toEqual([])
    expect(analyze({ runs: 40, metrics: 1, step }, 0.3).changes).toEqual([])
  })

  test('series are per host: a step on one host is not seen on the other', () => {
    const step = { metrics: ['synthetic/m0'], atRun: 40, factor: 1.2 }
    const report = analyze({ runs: 80, metrics: 1, hosts: ['a', 'b'], step: { ...step } })
    expect(report.seriesJudged).toBe(2)
    expect(report.changes.map((c) => [c.host, c.index])).toEqual([
      ['a', 20],
      ['b', 20],
    ])
  })

  test('only series with a point from the newest run are judged for the gate', () => {
    const runs: HistoryRunInput[] = syntheticHistory({ runs: 20, metrics: 2 })
    // The newest run measured only m1: m0's last point is an older night's, and it is not tonight's to judge.
    runs.at(-1)!.records[0]!.metrics = runs.at(-1)!.records[0]!.metrics.filter((m) => m.name === 'synthetic/m1')
    using store = freshStore()
    store.addRuns(runs)
    expect(judge(store).newest.map((j) => j.metric)).toEqual(['synthetic/m1'])
  })

  test('a unit without a direction is listed as not judged', () => {
    const [run] = syntheticHistory({ runs: 1, metrics: 1 })
    run!.records[0]!.metrics[0]!.better = null
    using store = freshStore()
    store.addRun(run!)
    const report = judge(store)
    expect(report.notJudged).toEqual([expect.objectContaining({ metric: 'synthetic/m0', reason: expect.any(String) })])
    expect(report.seriesJudged).toBe(0)
  })
})
