import { describe, expect, test } from 'vitest'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { ciFigures, githubBenchmarkJson } from '../../../src/report/render/ci-formats.ts'
import { loadDemo } from '../support/demo.ts'
import { expectGithubBenchmark } from '../support/formats.ts'

const demo = await loadDemo()
const report = buildReport(demo)

describe('CI figures and github-benchmark.json', () => {
  test('the demo run in customSmallerIsBetter format, one entry per figure, in figure order', () => {
    const entries = JSON.parse(githubBenchmarkJson(report)) as { name: string; range?: string }[]
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
})
