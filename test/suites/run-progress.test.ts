import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createProgressCollector, thinnedIndices } from '../../src/suites/run-progress.ts'
import type { TargetEvent } from '../../src/target/events.ts'

const batch = (done: number, total: number, atMs: number, worker: number | null = null): TargetEvent => ({
  type: 'batch',
  batch: 1,
  done,
  total,
  percent: 0,
  packEfficiency: 1,
  tokensPerS: 0,
  sequencesPerS: 0,
  eta: '0',
  worker,
  atMs,
})

describe('run progress', () => {
  test('thinned indices: at most max, strictly ascending, the first and the last kept', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 50_000 }), fc.integer({ min: 2, max: 5_000 }), (count, max) => {
        const kept = thinnedIndices(count, max)
        expect(kept.length).toBe(Math.min(count, max))
        expect(kept[0]).toBe(0)
        expect(kept.at(-1)).toBe(count - 1)
        for (let i = 1; i < kept.length; i++) expect(kept[i]).toBeGreaterThan(kept[i - 1]!)
      }),
    )
  })

  test('one series per stage and worker; lines outside a stage and other events are not progress', () => {
    const c = createProgressCollector(3)
    c.push(batch(10, 100, 1), null)
    c.push(
      { type: 'progress', label: 'DNABERT-S', done: 5, total: 50, worker: null, atMs: 2 },
      'DNABERT-S Feature Extraction',
    )
    c.push({ type: 'stage-start', index: 6, name: 'ESM-2 Feature Extraction', atMs: 3 }, 'ESM-2 Feature Extraction')
    for (let i = 1; i <= 5; i++) c.push(batch(i * 10, 50, 10 + i, 0), 'ESM-2 Feature Extraction')
    c.push(batch(20, 40, 20, 1), 'ESM-2 Feature Extraction')
    const series = c.series()
    expect(series.map((s) => [s.stage, s.worker, s.lines, s.total])).toEqual([
      ['DNABERT-S Feature Extraction', null, 1, 50],
      ['ESM-2 Feature Extraction', 0, 5, 50],
      ['ESM-2 Feature Extraction', 1, 1, 40],
    ])
    // Thinned to 3 points: the first, the middle and the last line of worker 0.
    expect(series[1]).toMatchObject({ atMs: [11, 13, 15], done: [10, 30, 50] })
  })
})
