import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { analyzeChanges } from '../../src/history/changes.ts'
import { readSeries } from '../../src/history/read.ts'
import { HistoryStore } from '../../src/history/store.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { type SyntheticOptions, syntheticCommit, syntheticHistory } from './support/synthetic-history.ts'

const root = tempDirUntilFileEnd('history-changes-')
let count = 0

function analyze(options: SyntheticOptions, minRelativeEffect?: number) {
  using store = HistoryStore.open(join(root, `h${++count}.sqlite`), { create: true })
  store.addRuns(syntheticHistory(options))
  return analyzeChanges(readSeries(store), { minRelativeEffect })
}

describe('history changes over a synthetic history (1% noise, one run per commit)', () => {
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
    // The step is 15 commits old: the newest commit is not a regression, and is judged against the points after it.
    expect(report.regressionAtNewest).toEqual([])
    expect(report.newest.find((j) => j.metric === 'synthetic/m0')!.windowFrom).toBe(syntheticCommit(25))
  })

  test('a step into the newest commit (run 5 times) is a regression at the newest commit, both ways', () => {
    const step = { metrics: ['synthetic/m0'], atRun: 35, factor: 1.1 }
    const report = analyze({ runs: 40, metrics: 2, step, commitOfRun: (run) => Math.min(run, 35) })
    expect(report.newestCommit).toBe(syntheticCommit(35))
    expect(report.regressionAtNewest.map((r) => [r.metric, r.how])).toEqual([
      ['synthetic/m0', ['change-point', 'newest-vs-window']],
    ])
    const judged = report.newest.find((j) => j.metric === 'synthetic/m0')!
    expect(judged.comparison).toMatchObject({ verdict: 'regressed', candidate: { n: 5 }, baseline: { n: 35 } })
    expect(report.newest.find((j) => j.metric === 'synthetic/m1')!.comparison.verdict).toBe('unchanged')
  })

  test('an improvement is a change, not a regression; a step under --min-effect is no change', () => {
    const step = { metrics: ['synthetic/m0'], atRun: 20, factor: 0.85 }
    const found = analyze({ runs: 40, metrics: 1, step })
    expect(found.changes).toEqual([expect.objectContaining({ index: 20, regression: false })])
    expect(found.regressionAtNewest).toEqual([])
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

  test('a unit without a direction is listed as not judged', () => {
    const [run] = syntheticHistory({ runs: 1, metrics: 1 })
    run!.records[0]!.metrics[0]!.better = null
    using store = HistoryStore.open(join(root, 'undirected.sqlite'), { create: true })
    store.addRun(run!)
    const report = analyzeChanges(readSeries(store))
    expect(report.notJudged).toEqual([expect.objectContaining({ metric: 'synthetic/m0', reason: expect.any(String) })])
    expect(report.seriesJudged).toBe(0)
  })
})
