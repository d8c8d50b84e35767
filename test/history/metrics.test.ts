import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { stageRunFigures } from '../../src/engine/stage-metrics.ts'
import {
  betterOf,
  capacityRateMetric,
  capacityWallMetric,
  energyMetric,
  stageRateMetric,
  wallMetric,
} from '../../src/history/metric-names.ts'
import { headlineMetrics } from '../../src/history/metrics.ts'
import { readResultRecords } from '../../src/results/store.ts'
import { sampleResultRecord } from '../support/result-records.ts'
import { CAPACITY_CPU, CAPACITY_H200, readRecord, SCALING_RUN_DIR } from './support/fixtures.ts'

describe('headline metrics of real records', () => {
  test('scaling run: every numeric verdict with its unit, CI and state; wall time and J/seq per setup', async () => {
    const { records } = await readResultRecords(SCALING_RUN_DIR)
    const metrics = headlineMetrics(records)
    const byName = new Map(metrics.map((m) => [m.name, m]))
    const speedup = byName.get('scaling/total/2gpu')!
    expect(speedup).toMatchObject({ recordId: 'scaling-reference', unit: 'x', better: 'higher', verdict: 'fail' })
    expect(speedup.ci).toEqual({ low: expect.any(Number), high: expect.any(Number) })
    expect(byName.get('perf02/ESM-2 Feature Extraction/2gpu/gpu1')).toMatchObject({ unit: '%', better: 'higher' })
    // The three counted runs of '1 GPU' took 11,131, 12,005 and 13,088 ms: median 12,005, CI [min, max] at n = 3.
    expect(byName.get('wall/1 GPU')).toMatchObject({ unit: 'ms', better: 'lower', n: 3, verdict: null })
    expect(byName.get('wall/1 GPU')!.value).toBeCloseTo(12_005.124, 2)
    expect(byName.get('wall/1 GPU')!.ci).toEqual({ low: 11_130.722794000001, high: 13_088.073814000003 })
    // Its runs are stored too: what the newest run is judged with against the last stable window.
    expect([...byName.get('wall/1 GPU')!.samples!].sort((a, b) => a - b)).toEqual([
      11_130.722794000001,
      expect.closeTo(12_005.124, 2),
      13_088.073814000003,
    ])
    // Verdicts are figures of their own, without runs.
    expect(speedup.samples).toBeNull()
    expect(byName.get('energy/2 GPUs')).toMatchObject({ unit: 'J/seq', better: 'lower', value: 129.375, n: 3 })
    // The skipped memory record has no verdicts and no completed runs: nothing from it.
    expect(metrics.filter((m) => m.recordId === 'memory-reference')).toEqual([])
  })

  test('capacity on an H200: the 6,000,000-sequence projection is the verdict (h, with state), ESM-2 seq/s from stats', () => {
    const record = readRecord(CAPACITY_H200)
    const byName = new Map(headlineMetrics([record]).map((m) => [m.name, m]))
    const wall = byName.get(capacityWallMetric(1, 6_000_000))!
    expect(wall).toMatchObject({ unit: 'h', better: 'lower', verdict: 'pass' })
    expect(wall.value).toBeCloseTo(5.574, 3)
    const esm2 = byName.get(capacityRateMetric(1, 'ESM-2 Feature Extraction'))!
    expect(esm2).toMatchObject({ unit: 'seq/s', better: 'higher' })
    expect(esm2.value).toBeCloseTo(390.0, 0)
    expect(esm2.ci!.low).toBeLessThan(esm2.value)
    expect(esm2.ci!.high).toBeGreaterThan(esm2.value)
    expect(byName.get(wallMetric('1 GPU, 10,000 seqs'))!.value).toBeCloseTo(40_324.9, 0)
  })

  test('a capacity record without its verdicts still gives the projection, from stats.configurations[].at', () => {
    const record = readRecord(CAPACITY_CPU)
    const fromVerdict = headlineMetrics([record]).find((m) => m.name === capacityWallMetric(2, 6_000_000))!
    const fromStats = headlineMetrics([{ ...record, verdicts: [] }]).find(
      (m) => m.name === capacityWallMetric(2, 6_000_000),
    )!
    expect(fromStats).toMatchObject({ unit: 'h', verdict: null })
    expect(fromStats.value).toBeCloseTo(fromVerdict.value, 9)
    expect(fromStats.ci!.low).toBeCloseTo(fromVerdict.ci!.low, 6)
  })

  test("a stage record's rates carry the items/s of each of its counted runs", async () => {
    const { records } = await readResultRecords(SCALING_RUN_DIR)
    const scaling = records.find((r) => r.id === 'scaling-reference')!
    const runs = scaling.runs.filter((m) => m.label.startsWith('1 GPU') && !m.warmup)
    const stats = {
      configuration: '1 GPU',
      stages: [{ stage: 'ESM-2 Feature Extraction', itemsPerS: { median: 1, n: runs.length, ci: null } }],
    }
    const stage = { ...scaling, id: 'stage-1-GPU', kind: 'stage' as const, runs, stats, verdicts: [] }
    const [rate] = headlineMetrics([stage]).filter((m) => m.name.startsWith('rate/'))
    const expected = runs.map((m) => {
      const f = stageRunFigures(m.run).find((x) => x.stage === 'ESM-2 Feature Extraction')!
      return (f.items! * 1000) / f.durationMs!
    })
    expect(expected.every((v) => v > 0)).toBe(true)
    expect(rate!.samples).toEqual(expected)
  })

  test('stage records bring ESM-2 and DNABERT-S items/s per setup', () => {
    const stats = {
      configuration: '2 GPUs',
      stages: [
        { stage: 'ESM-2 Feature Extraction', itemsPerS: { median: 120, n: 5, ci: { low: 110, high: 130 } } },
        { stage: 'Feature Merging', itemsPerS: { median: 9_000, n: 5, ci: null } },
      ],
    }
    const metrics = headlineMetrics([sampleResultRecord({ stats, verdicts: [] })])
    expect(metrics.filter((m) => m.name.startsWith('rate/'))).toEqual([
      expect.objectContaining({
        name: stageRateMetric('2 GPUs', 'ESM-2 Feature Extraction'),
        unit: 'items/s',
        better: 'higher',
        value: 120,
        ci: { low: 110, high: 130 },
      }),
    ])
  })
})

describe('metric names and directions (properties)', () => {
  const label = fc.string({ minLength: 1, maxLength: 30 })

  test('builders are injective per family and never collide across families', () => {
    fc.assert(
      fc.property(label, label, (a, b) => {
        expect(wallMetric(a) === wallMetric(b)).toBe(a === b)
        expect(energyMetric(a)).not.toBe(wallMetric(b))
        expect(wallMetric(a).slice('wall/'.length)).toBe(a)
      }),
    )
  })

  test('times, energy and time per item are lower-is-better; rates, %, x higher-is-better', () => {
    // An item is what is counted (seq, frames); a time unit as the item ('h/s') reads as a time per time, not a rate.
    const item = fc.stringMatching(/^[a-z][a-z-]{0,9}$/).filter((w) => !['ms', 's', 'min', 'h'].includes(w))
    fc.assert(
      fc.property(fc.constantFrom('ms', 's', 'h', 'J'), item, (time, what) => {
        expect(betterOf(time)).toBe('lower')
        expect(betterOf(`${time}/${what}`)).toBe('lower')
        expect(betterOf(`${what}/s`)).toBe('higher')
        expect(betterOf(`${what}/h`)).toBe('higher')
      }),
    )
    for (const unit of ['%', 'x', 'seq/s', 'items/s', '% labels agree']) expect(betterOf(unit)).toBe('higher')
    for (const unit of ['J/seq', 'MiB', '% of capacity', 'B/A']) expect(betterOf(unit)).toBe('lower')
    for (const unit of [null, 'x typical', 'sequences']) expect(betterOf(unit)).toBeNull()
  })

  test('every metric of a record is named once, whatever its verdicts repeat', () => {
    const verdict = fc.record({
      id: fc.constantFrom('a', 'b', 'wall/1 GPU', 'capacity/1/perf01/6000000'),
      value: fc.option(fc.double({ min: -1e9, max: 1e9, noNaN: true })),
      unit: fc.constantFrom('ms', '%', 'x', null),
    })
    fc.assert(
      fc.property(fc.array(verdict, { maxLength: 8 }), (vs) => {
        const verdicts = vs.map((v) => ({
          ...v,
          title: v.id,
          verdict: 'pass' as const,
          ci: null,
          threshold: null,
          detail: '',
          stage: null,
          gpu: null,
        }))
        const names = headlineMetrics([sampleResultRecord({ verdicts })]).map((m) => m.name)
        expect(new Set(names).size).toBe(names.length)
        const numeric = vs.filter((v) => v.value !== null).map((v) => v.id)
        for (const id of numeric) expect(names).toContain(id)
      }),
    )
  })
})
