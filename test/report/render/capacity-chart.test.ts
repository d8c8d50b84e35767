import { describe, expect, test } from 'vitest'
import { analyzeCapacityRecords, type CapacityEntry } from '../../../src/capacity/report-analysis.ts'
import { capacitySpec } from '../../../src/report/render/capacity-chart.ts'
import { CPU_1_2_WORKERS, capacityRecord, H200_1GPU } from '../support/capacity.ts'

const entryOf = async (file: string) => analyzeCapacityRecords([await capacityRecord(file)]).entries[0]!
const cpu = await entryOf(CPU_1_2_WORKERS)
const h200 = await entryOf(H200_1GPU)

interface Layer {
  data: { values: Record<string, unknown>[] }
  mark: { type: string; color?: string }
  encoding: Record<string, { field?: string; scale?: { type?: string }; title?: string }>
}
const layers = (entry: CapacityEntry) => (capacitySpec(entry) as unknown as { layer: Layer[] }).layer
const ofType = (entry: CapacityEntry, type: string) => layers(entry).filter((l) => l.mark.type === type)

describe('capacity chart spec', () => {
  test('both axes are log scales, sizes in sequences and times in hours', () => {
    const line = ofType(cpu, 'line')[0]!
    expect(line.encoding.x).toMatchObject({ field: 'sequences', scale: { type: 'log' } })
    expect(line.encoding.x!.title).toMatch(/sequences/)
    expect(line.encoding.y).toMatchObject({ field: 'hours', scale: { type: 'log' } })
  })

  test('one line per configuration, from its curve, with a CI band', () => {
    const values = ofType(cpu, 'line')[0]!.data.values
    expect(new Set(values.map((v) => v.config))).toEqual(new Set(['1 worker', '2 workers']))
    const band = ofType(cpu, 'area')[0]!
    expect(band.encoding.y2).toMatchObject({ field: 'high' })
    expect(band.data.values.every((v) => (v.low as number) > 0 && (v.high as number) >= (v.low as number))).toBe(true)
  })

  test('the PERF-01 limit is a rule at 10 h, labelled', () => {
    const [rule] = ofType(cpu, 'rule').filter((l) => l.encoding.y)
    expect(rule!.data.values).toEqual([expect.objectContaining({ hours: 10, text: 'PERF-01 limit 10 h' })])
  })

  test('target sizes are vertical rules; measured medians are points on each configuration', () => {
    const [targets] = ofType(cpu, 'rule').filter((l) => !l.encoding.y)
    expect(targets!.data.values.map((v) => v.sequences)).toEqual([45_000, 6_000_000])
    const measured = ofType(cpu, 'point').find((l) => l.encoding.color)!
    expect(measured.data.values).toHaveLength(4)
  })

  test('a finite break-even inside the plotted range is a labelled point on the baseline line', () => {
    const [point] = ofType(cpu, 'point').filter((l) => l.mark.color)
    const [be] = point!.data.values
    expect(be!.sequences).toBeCloseTo(290.63, 2)
    const base = cpu.configurations[0]!
    expect(be!.hours).toBeCloseTo((base.wallFixedMs.value + base.wallMsPerSequence.value * 290.63) / 3_600_000, 6)
    expect(be!.text).toBe('2 workers: break-even 291')
  })

  test('no break-even mark where k GPUs never break even, or outside the plotted sizes, or without a comparison', () => {
    const never = structuredClone(cpu)
    never.comparisons[0]!.breakEven.sequences = null
    const far = structuredClone(cpu)
    far.comparisons[0]!.breakEven.sequences = 1e12
    for (const e of [never, far, h200])
      expect(
        ofType(e, 'point')
          .filter((l) => l.mark.color)
          .flatMap((l) => l.data.values),
      ).toEqual([])
  })

  test('band points whose CI reaches 0 or below are left out (a log axis cannot show them); the line keeps them', () => {
    const e = structuredClone(cpu)
    e.curves[0]!.lowMs = -5
    expect(ofType(e, 'area')[0]!.data.values).toHaveLength(e.curves.length - 1)
    expect(ofType(e, 'line')[0]!.data.values).toHaveLength(e.curves.length)
  })
})
