// The trends analysis over real SQLite histories (test/report/support/history.ts) and, for the bounds, hand-made series.
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import type { ChangesReport, SeriesChange } from '../../../src/history/changes.ts'
import type { Series } from '../../../src/history/read.ts'
import {
  MAX_TREND_CHARTS,
  MAX_TREND_LINES,
  MAX_TREND_POINTS,
  orderCharts,
  type TrendChart,
} from '../../../src/report/analyses/trend-charts.ts'
import { trendFamilyOf } from '../../../src/report/analyses/trend-families.ts'
import { analyzeTrends } from '../../../src/report/analyses/trends.ts'
import { loadTrendsInput } from '../../../src/report/history-input.ts'
import { syntheticCommit } from '../../history/support/synthetic-history.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { addNights, realRecords, syntheticHeadlineHistory } from '../support/history.ts'

const root = tempDirUntilFileEnd('report-trends-')
const loaded = (file: string) => {
  const t = analyzeTrends(loadTrendsInput({ file }))
  if (t?.state !== 'loaded') throw new Error(`history ${file} not loaded: ${JSON.stringify(t)}`)
  return t
}

describe('headline metrics', () => {
  test.each([
    ['wall/1 GPU', 'wall'],
    ['energy/2 workers, 40 seqs', 'energy'],
    ['rate/1 GPU/ESM-2 Feature Extraction', 'rate'],
    ['capacity/2/rate/DNABERT-S Feature Extraction', 'rate'],
    ['perf02/ESM-2 Feature Extraction/2gpu/gpu1', 'perf02'],
    ['capacity/1/perf02/ESM-2 Feature Extraction/steady', 'perf02'],
    ['capacity/4/perf01/6000000', 'projection'],
    ['capacity/1/perf01/45000', null],
    ['capacity/1/perf01/measured', null],
    ['capacity/2/speedup/6000000', null],
    ['capacity/2/break-even', null],
    ['scaling/total/2gpu', null],
  ])('%s is %s', (metric, family) => {
    expect(trendFamilyOf(metric)).toBe(family)
  })
})

describe('real records stored as three nights', () => {
  const file = join(root, 'real.sqlite')

  test('every family is drawn within the bound, and only headline metrics', async () => {
    addNights(file, await realRecords(), 3)
    const t = loaded(file)
    expect(t.runs).toBe(9)
    expect(t.charts).toHaveLength(MAX_TREND_CHARTS)
    expect(t.charts.length + t.chartsLeftOut).toBeGreaterThan(MAX_TREND_CHARTS)
    expect(new Set(t.charts.map((c) => c.family))).toEqual(new Set(['wall', 'rate', 'perf02', 'energy', 'projection']))
    for (const c of t.charts) expect(trendFamilyOf(c.metric)).toBe(c.family)
  })

  test('one chart per metric, a line per record + host + GPU, the runs in order labelled by their commit', () => {
    const t = loaded(file)
    const projection = t.charts.find((c) => c.metric === 'capacity/1/perf01/6000000')!
    expect(projection.lines.map((l) => l.label)).toEqual([
      'capacity-1-GPU @ vm / NVIDIA H200',
      expect.stringMatching(/^capacity-1-worker-2-workers @ .+ \/ NVIDIA H200 \(fake\)$/),
    ])
    expect(projection.unit).toBe('h')
    expect(projection.better).toBe('lower')
    // Two records a night, one x position per run: the nights' runs in createdAt order.
    expect(projection.positions.map((p) => p.commit)).toEqual([0, 0, 1, 1, 2, 2].map(syntheticCommit))
    for (const line of projection.lines) {
      expect(line.points).toHaveLength(3)
      expect(line.points.every((p) => p.ciLow! <= p.value && p.value <= p.ciHigh!)).toBe(true)
    }
    expect(t.changes).toEqual([])
  })
})

test('a series with one point is counted, not drawn', () => {
  const file = syntheticHeadlineHistory(root, { runs: 1, names: ['wall/1 GPU'] })
  const t = loaded(file)
  expect(t).toMatchObject({ series: 0, singlePointSeries: 1, charts: [], changes: [] })
})

describe('a planted step', () => {
  const names = ['energy/1 GPU', 'wall/1 GPU', 'wall/2 GPUs']

  test('one change point, marked between the last run before it and the first after; its chart first', () => {
    const file = syntheticHeadlineHistory(root, { names, step: { metrics: ['wall/2 GPUs'], atRun: 20, factor: 1.3 } })
    const t = loaded(file)
    expect(t.charts.map((c) => c.metric)).toEqual(['wall/2 GPUs', 'wall/1 GPU', 'energy/1 GPU'])
    expect(t.charts[0]!.marks).toEqual([
      expect.objectContaining({
        x: 19.5,
        fromKey: syntheticCommit(19),
        toKey: syntheticCommit(20),
        regression: true,
        relativeChange: expect.closeTo(0.3, 1),
      }),
    ])
    expect(t.charts[0]).toMatchObject({ changes: 1, regressions: 1 })
    expect(t.changes).toEqual([expect.objectContaining({ metric: 'wall/2 GPUs', fromRun: 'synthetic-000019' })])
  })

  test('a step the good way is an improvement', () => {
    const file = syntheticHeadlineHistory(root, { names, step: { metrics: ['wall/1 GPU'], atRun: 10, factor: 0.7 } })
    const t = loaded(file)
    expect(t.charts[0]!.marks).toEqual([expect.objectContaining({ x: 9.5, regression: false })])
    expect(t.charts[0]).toMatchObject({ metric: 'wall/1 GPU', changes: 1, regressions: 0 })
  })

  test("the newest run is judged by its runs against the last stable window: slow alone a suspect, slow a second time the gate's regression", () => {
    const slowRuns = (runs: number) =>
      loaded(syntheticHeadlineHistory(root, { names, runs, step: { metrics: ['wall/1 GPU'], atRun: 23, factor: 1.5 } }))
    const alone = slowRuns(24)
    expect(alone.newestCommit).toBe(syntheticCommit(23))
    const finding = {
      metric: 'wall/1 GPU',
      how: 'newest-vs-window',
      fromCommit: syntheticCommit(22),
      toCommit: syntheticCommit(23),
    }
    expect(alone.regressions).toEqual([])
    expect(alone.suspects).toEqual([expect.objectContaining({ ...finding, pointsRegressed: 1 })])
    const judged = alone.newest.find((j) => j.metric === 'wall/1 GPU')!
    expect(judged).toMatchObject({ verdict: 'regressed', commit: syntheticCommit(23), basis: 'runs' })
    expect(alone.newest.find((j) => j.metric === 'energy/1 GPU')!.verdict).toBe('unchanged')
    const twice = slowRuns(25)
    expect(twice.regressions).toEqual([expect.objectContaining({ ...finding, pointsRegressed: 2 })])
    expect(twice.suspects).toEqual([])
  })
})

describe('bounds', () => {
  test(`${MAX_TREND_CHARTS} charts, ${MAX_TREND_LINES} lines a chart, the newest ${MAX_TREND_POINTS} runs; the rest counted`, () => {
    const hosts = Array.from({ length: 10 }, (_, i) => `host-${i}`)
    const names = Array.from({ length: 15 }, (_, i) => `wall/setup ${String(i).padStart(2, '0')}`)
    const file = syntheticHeadlineHistory(root, { names, hosts, runs: 130 })
    const t = loaded(file)
    expect(t).toMatchObject({ series: 150, runs: 130, chartsLeftOut: 15 - MAX_TREND_CHARTS })
    expect(t.charts).toHaveLength(MAX_TREND_CHARTS)
    const chart = t.charts[0]!
    expect(chart.lines).toHaveLength(MAX_TREND_LINES)
    expect(chart.linesLeftOut).toBe(2)
    // 8 hosts' runs of 130 (13 each): 104 positions, the newest 100 drawn.
    expect(chart.positions).toHaveLength(MAX_TREND_POINTS)
    expect(chart.positionsLeftOut).toBe(4)
    expect(chart.positions.at(-1)!.runId).toBe('synthetic-000127')
  })

  test('a change point older than the drawn runs is counted, not marked; lines with changes are drawn first', () => {
    const series = (host: string, values: number[]): Series => ({
      metric: { id: 1, name: 'wall/1 GPU', unit: 'ms', better: 'lower' },
      recordId: 'r',
      host,
      gpuModel: 'g',
      values,
      rowIds: values.map((_, i) => i + 1),
      detail: null,
      records: values.map((_, i) => ({
        runId: `${host}-${String(i).padStart(4, '0')}`,
        recordId: 'r',
        createdAt: new Date(i * 60_000 + (host === 'a' ? 0 : 1)).toISOString(),
        host,
        gpuModel: 'g',
        commit: `c${i}`,
        commitOf: 'target',
        regressionThreshold: 0.1,
      })),
    })
    const hosts = Array.from({ length: MAX_TREND_LINES + 1 }, (_, i) => String.fromCharCode(97 + i))
    const all = hosts.map((h) =>
      series(
        h,
        Array.from({ length: 60 }, () => 1),
      ),
    )
    const change = (host: string, index: number): SeriesChange => ({
      metric: 'wall/1 GPU',
      recordId: 'r',
      unit: 'ms',
      better: 'lower',
      host,
      gpuModel: 'g',
      index,
      fromKey: `c${index - 1}`,
      toKey: `c${index}`,
      before: { median: 1, ci: null, n: index },
      after: { median: 2, ci: null, n: 60 - index },
      relativeChange: 1,
      pValue: 0.01,
      regression: true,
      fromRun: `${host}-${String(index - 1).padStart(4, '0')}`,
      toRun: `${host}-${String(index).padStart(4, '0')}`,
      confirmedByNewest: false,
      movedWith: [],
    })
    const last = hosts.at(-1)!
    const changes: ChangesReport = {
      newestCommit: 'c59',
      newestRun: null,
      seriesJudged: all.length,
      notJudged: [],
      changes: [change(last, 3), change(last, 55)],
      newest: [],
      regressions: [],
      suspects: [],
    }
    const t = analyzeTrends({ state: 'loaded', file: 'f', series: all, changes })
    if (t?.state !== 'loaded') throw new Error('not loaded')
    const [chart] = t.charts
    // The last host sorts last by name but has the changes: it is drawn, and one host without is left out.
    expect(chart!.lines[0]!.host).toBe(last)
    expect(chart!.linesLeftOut).toBe(1)
    // 8 hosts x 60 runs: the newest 100 runs are the last 12-13 of each host; index 3 lies before them.
    expect(chart!.changes).toBe(2)
    expect(chart!.marks).toHaveLength(1)
    expect(chart!.marks[0]).toMatchObject({ fromKey: 'c54', toKey: 'c55' })
  })

  test('changed charts first (regressions, then the largest change), then the unchanged families in turn', () => {
    const chart = (metric: string, family: TrendChart['family'], marks: [number, boolean][] = []): TrendChart => ({
      metric,
      family,
      unit: 'ms',
      better: 'lower',
      positions: [],
      positionsLeftOut: 0,
      lines: [],
      linesLeftOut: 0,
      marks: marks.map(([relativeChange, regression]) => ({
        x: 0,
        line: 'l',
        fromKey: 'a',
        toKey: 'b',
        relativeChange,
        regression,
      })),
      changes: marks.length,
      regressions: marks.filter(([, r]) => r).length,
    })
    const ordered = orderCharts([
      chart('wall/a', 'wall'),
      chart('wall/b', 'wall'),
      chart('wall/c', 'wall'),
      chart('energy/a', 'energy'),
      chart('rate/a/s', 'rate'),
      chart('wall/improved', 'wall', [[-0.5, false]]),
      chart('wall/small', 'wall', [[0.12, true]]),
      chart('energy/large', 'energy', [[0.4, true]]),
    ])
    expect(ordered.map((c) => c.metric)).toEqual([
      'energy/large',
      'wall/small',
      'wall/improved',
      'wall/a',
      'rate/a/s',
      'energy/a',
      'wall/b',
      'wall/c',
    ])
  })
})

test('no history asked for: null; one that could not be used passes through with why', () => {
  expect(analyzeTrends(null)).toBeNull()
  expect(analyzeTrends(undefined)).toBeNull()
  const unavailable = { state: 'unavailable' as const, file: '/x.sqlite', reason: 'no history database at /x.sqlite' }
  expect(analyzeTrends(unavailable)).toEqual(unavailable)
})
