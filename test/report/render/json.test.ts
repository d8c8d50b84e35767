import { describe, expect, test } from 'vitest'
import { BOTTLENECK_RULES } from '../../../src/report/analyses/bottleneck-rules.ts'
import { buildReport } from '../../../src/report/analyses/build.ts'
import {
  BottleneckJsonSchema,
  bottleneckJson,
  Perf02JsonSchema,
  perf02Json,
  ReportJsonSchema,
  ReportSchemaError,
  summaryJson,
} from '../../../src/report/render/json.ts'
import { CPU_1_2_WORKERS, capacityRecord, reportOf } from '../support/capacity.ts'
import { loadDemo } from '../support/demo.ts'
import { BEST, NOTHING_TO_COMPARE, studyRecord, withStats } from '../support/study.ts'

const demo = await loadDemo()
const report = buildReport(demo)

describe('bulk JSON files (serialized as built, held to their schemas here)', () => {
  test('bottleneck.json matches its schema and holds every group and flag', () => {
    const json = JSON.parse(bottleneckJson(report))
    expect(BottleneckJsonSchema.safeParse(json).success).toBe(true)
    expect(json.groups).toHaveLength(report.bottleneck.groups.length)
    expect(json.groups.flatMap((g: { flags: unknown[] }) => g.flags)).toHaveLength(
      report.bottleneck.groups.reduce((n, g) => n + g.flags.length, 0),
    )
  })

  test('bottleneck.json writes each rule recommendation once, keyed by rule, never per flag', () => {
    const text = bottleneckJson(report)
    const json = JSON.parse(text)
    const rules = new Set(report.bottleneck.groups.flatMap((g) => g.flags.map((f) => f.rule)))
    expect(Object.keys(json.recommendations).sort()).toEqual([...rules].sort())
    for (const [rule, text] of Object.entries(json.recommendations))
      expect(text).toBe(BOTTLENECK_RULES.find((r) => r.id === rule)?.recommendation)
    for (const g of json.groups) for (const f of g.flags) expect(Object.keys(f)).toEqual(['rule', 'stage', 'evidence'])
    const once = BOTTLENECK_RULES.find((r) => r.id === 'gpu-imbalance')?.recommendation as string
    expect(text.split(JSON.stringify(once).slice(1, -1)).length - 1).toBe(1)
  })

  test('perf02.json matches its schema and holds every row', () => {
    const json = JSON.parse(perf02Json(report))
    expect(Perf02JsonSchema.safeParse(json).success).toBe(true)
    expect(json.rows).toHaveLength(report.perf02.rows.length)
  })
})

describe('summary.json (validated before it is written)', () => {
  test('is valid against the report schema and points to the bulk files with their counts', () => {
    const json = JSON.parse(summaryJson(report))
    expect(ReportJsonSchema.safeParse(json).success).toBe(true)
    expect(json.bottleneck).toMatchObject({ file: 'bottleneck.json', groups: report.bottleneck.groups.length })
    expect(json.perf02).toMatchObject({ file: 'perf02.json', rows: report.perf02.rows.length })
  })

  test('carries the capacity section, valid, with a break-even that never happens as null (not a number)', async () => {
    const record = await capacityRecord(CPU_1_2_WORKERS)
    const json = JSON.parse(summaryJson(reportOf([record])))
    expect(ReportJsonSchema.safeParse(json).success).toBe(true)
    const [entry] = json.capacity.entries
    expect(entry.configurations.map((c: { gpuCount: number }) => c.gpuCount)).toEqual([1, 2])
    expect(entry.comparisons[0].breakEven.ci.high).toBeNull()
    expect(entry.curves.length).toBeGreaterThan(0)
    expect(JSON.parse(summaryJson(report)).capacity).toEqual({ entries: [], architectures: [] })
  })

  test('carries the settings study under `study`, valid: the table summary.md shows and the figures per setting', () => {
    const damaged = withStats(studyRecord({ id: 'study-damaged' }), (s) => ({ ...s, rounds: null }))
    const json = JSON.parse(summaryJson(reportOf([studyRecord(), damaged])))
    expect(ReportJsonSchema.safeParse(json).success).toBe(true)
    const [table, line] = json.study.entries
    expect(table).toMatchObject({ shows: 'table', statusText: 'FINAL', best: BEST, production: 6_000_000 })
    expect(table.table.rows[1][0]).toBe(`${BEST} (best)`)
    const settings = new Map(table.settings.map((s: { label: string }) => [s.label, s]))
    // Nothing to compare stays null in JSON: never true, never false.
    expect(settings.get(NOTHING_TO_COMPARE)).toMatchObject({ outputsEqual: null, isBest: false })
    expect(line).toMatchObject({ shows: 'line', recordId: 'study-damaged' })
    expect(line.line).toMatch(/^study record 'study-damaged' .*: damaged stats, no table: stats\.rounds: /)
    expect(JSON.parse(summaryJson(report)).study).toEqual({ entries: [] })
  })

  test('a report an analysis got wrong (NaN count) is refused, naming the file and the field', () => {
    const bad = { ...report, counts: { ...report.counts, records: Number.NaN } }
    expect(() => summaryJson(bad)).toThrow(ReportSchemaError)
    expect(() => summaryJson(bad)).toThrow(/summary\.json: counts\.records/)
  })
})
