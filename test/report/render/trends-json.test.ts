// summary.json's trends: valid against the report schema, every change and judgement, the charts without their points.
import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { ReportJsonSchema, summaryJson } from '../../../src/report/render/json.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { loadDemo } from '../support/demo.ts'
import { loadedTrends, reportWithHistory, syntheticHeadlineHistory } from '../support/history.ts'

const root = tempDirUntilFileEnd('trends-json-')
const file = syntheticHeadlineHistory(root, {
  names: ['wall/1 GPU', 'energy/1 GPU'],
  steps: [{ metrics: ['wall/1 GPU'], atRun: 15, factor: 1.4 }],
})
const { report } = await reportWithHistory(file)

describe('summary.json trends', () => {
  test('valid; every change point and newest judgement; each chart with its lines and point counts, not the points', () => {
    const json = JSON.parse(summaryJson(report))
    expect(ReportJsonSchema.safeParse(json).success).toBe(true)
    expect(json.trends).toMatchObject({ state: 'loaded', file, runs: 30, series: 2, chartsLeftOut: 0 })
    expect(json.trends.changes).toEqual([
      expect.objectContaining({ metric: 'wall/1 GPU', index: 15, regression: true }),
    ])
    expect(json.trends.newest).toHaveLength(2)
    const [chart] = json.trends.charts
    expect(chart).toMatchObject({ metric: 'wall/1 GPU', runs: 30, changes: 1, regressions: 1 })
    expect(chart.lines).toEqual([expect.objectContaining({ recordId: 'synthetic', points: 30 })])
    expect(chart.positions).toBeUndefined()
    expect(chart.marks).toBeUndefined()
  })

  test('a relative change from exactly 0 (infinite) is written as null, not refused', () => {
    const trends = structuredClone(loadedTrends(report))
    trends.changes[0]!.relativeChange = Number.POSITIVE_INFINITY
    const json = JSON.parse(summaryJson({ ...report, trends }))
    expect(json.trends.changes[0].relativeChange).toBeNull()
  })

  test('no history: null; a history that could not be used: its file and why', async () => {
    const demo = buildReport(await loadDemo())
    expect(JSON.parse(summaryJson(demo)).trends).toBeNull()
    const unavailable = { state: 'unavailable' as const, file: '/h', reason: 'no history database at /h' }
    expect(JSON.parse(summaryJson({ ...demo, trends: unavailable })).trends).toEqual(unavailable)
  })
})
