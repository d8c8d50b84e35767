import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { quantile, toSorted } from '../../../src/measure/index.ts'
import type { SampleRecord } from '../../../src/monitor/records.ts'
import { pooledQuantile, stageUtilCache, stageUtilOf } from '../../../src/report/analyses/stage-util.ts'

const STAGES = ['a', 'b', null] as const

function sample(stage: string | null, gpu: number, utilPct: number | null): SampleRecord {
  return {
    kind: 'sample',
    tMs: 0,
    gpu,
    stage,
    utilPct,
    utilMemoryPct: null,
    memUsedBytes: null,
    memTotalBytes: null,
    powerMw: null,
    tempC: null,
    smClockMhz: null,
    memClockMhz: null,
    clockEventReasons: null,
  }
}

const series = fc.array(
  fc
    .tuple(
      fc.constantFrom(...STAGES),
      fc.integer({ min: 0, max: 2 }),
      fc.option(fc.double({ min: 0, max: 100, noNaN: true })),
    )
    .map(([stage, gpu, util]) => sample(stage, gpu, util)),
  { maxLength: 60 },
)

describe('utilization by stage and GPU', () => {
  test('the pooled quantile of several series is the quantile of all their samples of that stage and GPU', () => {
    fc.assert(
      fc.property(fc.array(series, { maxLength: 4 }), fc.double({ min: 0, max: 1, noNaN: true }), (all, p) => {
        const parts = all.map(stageUtilOf)
        for (const stage of ['a', 'b'])
          for (const gpu of [0, 1, 2]) {
            const values = all
              .flat()
              .flatMap((s) => (s.stage === stage && s.gpu === gpu && s.utilPct !== null ? [s.utilPct] : []))
            const expected = values.length === 0 ? null : quantile(toSorted(values), p)
            expect(pooledQuantile(parts, stage, gpu, p)).toBe(expected)
          }
      }),
    )
  })

  test('samples outside any stage, and readings that are null or not finite, are left out', () => {
    const util = stageUtilOf([
      sample(null, 0, 50),
      sample('a', 0, null),
      sample('a', 0, Number.NaN),
      sample('a', 0, 30),
      sample('a', 0, 10),
    ])
    expect([...util.keys()]).toEqual(['a'])
    expect([...(util.get('a')?.get(0) ?? [])]).toEqual([10, 30])
  })

  test('the cache reads each series once per analysis, and a new cache reads it again', () => {
    const samples = [sample('a', 0, 1)]
    const utilOf = stageUtilCache()
    expect(utilOf(samples)).toBe(utilOf(samples))
    expect(stageUtilCache()(samples)).not.toBe(utilOf(samples))
  })
})
