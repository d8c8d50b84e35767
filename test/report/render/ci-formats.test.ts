import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { ciFigures, githubBenchmarkJson, rangeText } from '../../../src/report/render/ci-formats.ts'
import { loadDemo } from '../support/demo.ts'
import { expectGithubBenchmark } from '../support/formats.ts'

const demo = await loadDemo()
const report = buildReport(demo)

describe('CI figures and github-benchmark.json', () => {
  test('the demo run in customSmallerIsBetter format, one entry per figure, in figure order', () => {
    const entries = JSON.parse(githubBenchmarkJson(report)!) as { name: string; range?: string }[]
    expectGithubBenchmark(entries)
    expect(entries.map((e) => e.name)).toEqual(ciFigures(report).map((f) => f.name))
  })

  test('a scaling record appears as its curve points (median with CI), not again as bare group means', () => {
    const names = ciFigures(report).map((f) => f.name)
    expect(names).toContain('scaling-reference/2 GPU/total')
    expect(names.some((n) => n.startsWith('scaling-reference/2 GPUs/'))).toBe(false)
  })

  test('a record without curves gives its groups: total and one figure per stage', () => {
    const stageRecord = { ...report, scaling: { curves: [] } }
    const names = ciFigures(stageRecord).map((f) => f.name)
    const group = report.bottleneck.groups[0]
    expect(names).toContain(`${group?.recordId}/${group?.group}/total`)
    for (const s of group?.stages ?? []) expect(names).toContain(`${group?.recordId}/${group?.group}/${s.stage}`)
  })

  test('range states the interval itself, as its bounds are: a median CI is not centred on the median', () => {
    const figures = ciFigures(report).filter((f) => f.lowMs !== null)
    expect(figures.length).toBeGreaterThan(0)
    for (const f of figures) {
      const match = /^(\d+(?:\.\d+)?)% CI \[(\S+), (\S+)\]$/.exec(rangeText(f) ?? '')
      expect(match, rangeText(f)).not.toBeNull()
      expect(Number(match![2])).toBeCloseTo(f.lowMs!, 2)
      expect(Number(match![3])).toBeCloseTo(f.highMs!, 2)
      expect(f.lowMs!).toBeLessThanOrEqual(f.valueMs)
      expect(f.valueMs).toBeLessThanOrEqual(f.highMs!)
    }
  })

  test('3 runs give [min, max], a 75% CI: the range and extra say 75%, never 95%', () => {
    const three = ciFigures(report).find((f) => f.name === 'scaling-reference/1 GPU/total')!
    expect(three.ciLabel).toBe('75% CI')
    expect(rangeText(three)).toMatch(/^75% CI \[/)
    expect(three.extra).toBe('3 runs, median with 75% CI (3 runs cannot give 95%)')
  })

  test('one run: no range and no "CI" in extra', () => {
    const curves = report.scaling.curves.map((c) => ({
      ...c,
      points: c.points.map((p) => ({ ...p, runs: 1, ci: null, ciCoverage: null })),
    }))
    const entries = JSON.parse(githubBenchmarkJson({ ...report, scaling: { curves } })!) as Record<string, string>[]
    const point = entries.find((e) => e.name === 'scaling-reference/1 GPU/total')!
    expect(point.range).toBeUndefined()
    expect(point.extra).toBe('1 run, median, no CI')
  })

  test('no figure at all: no file for github-action-benchmark, which refuses an empty list', () => {
    const empty = {
      ...report,
      scaling: { curves: [] },
      bottleneck: { ...report.bottleneck, groups: [] },
      benchmarks: [],
    }
    expect(githubBenchmarkJson(empty)).toBeNull()
  })
})
