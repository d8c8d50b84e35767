import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { fitLine } from '../../src/measure/index.ts'
import type { StageProgress } from '../../src/results/schema/index.ts'
import { SPAN_MIN_LINES, spanMs, stageSteady } from '../../src/suites/capacity-rates.ts'
import { h100Record } from './support/gpu-capacity.ts'

/**
 * A stage's lines over `items` length-sorted items with a per-item cost rising along the stage (the reference
 * pipeline's DNABERT-S: its last fifth of batches ~3x the rest per item), `batch` items a line, after `startMs`.
 */
function sortedStage(items: number, batch: number, startMs: number, worker: number | null = null): StageProgress {
  const cost = (i: number) => (i / items < 0.8 ? 0.25 : 0.75)
  const atMs: number[] = []
  const done: number[] = []
  let t = startMs
  for (let i = 0; i < items; i++) {
    t += cost(i)
    if ((i + 1) % batch === 0 || i === items - 1) {
      atMs.push(t)
      done.push(i + 1)
    }
  }
  return { stage: 'S', worker, total: items, lines: atMs.length, atMs, done }
}

describe('a stage steady part inside one run', () => {
  test('the span of its lines scaled to all items holds the length profile whatever the size; a slope would not', () => {
    fc.assert(
      fc.property(fc.integer({ min: 200, max: 20_000 }), fc.integer({ min: 10, max: 60 }), (items, batch) => {
        const p = sortedStage(items, batch, 5_000)
        // Per item: 0.8 x 0.25 + 0.2 x 0.75 = 0.35 ms; the span leaves out the first line's items only.
        expect(spanMs(p)! / items).toBeCloseTo(0.35, 1)
      }),
    )
    const slopeOf = (items: number) => {
      const p = sortedStage(items, 20, 0)
      const drop = Math.max(1, Math.floor(p.atMs.length * 0.1))
      return fitLine(p.done.slice(drop), p.atMs.slice(drop)).msPerSequence
    }
    // What a least-squares slope through the same lines reads: not one figure at every size (the H100's DNABERT-S).
    expect(Math.abs(slopeOf(1_000) - slopeOf(20_000))).toBeGreaterThan(0.005)
  })

  test('a worker with too few lines, or none, gives no steady part; the slowest worker bounds the stage', () => {
    const short = { ...sortedStage(40, 20, 0), stage: 'S' }
    expect(short.atMs.length).toBeLessThan(SPAN_MIN_LINES)
    expect(spanMs(short)).toBeNull()
    expect(stageSteady([], 'S')).toBeNull()
    const fast = sortedStage(2_000, 20, 0, 0)
    const slow = { ...sortedStage(2_000, 20, 0, 1), atMs: sortedStage(2_000, 20, 0).atMs.map((t) => t * 1.5) }
    const main = sortedStage(4_000, 20, 0, null)
    const steady = stageSteady([main, fast, slow], 'S')!
    expect(steady.slowestWorker).toBe(1)
    expect(steady.steadyMs).toBeCloseTo(spanMs(slow)!, 6)
    expect(steady.lines).toBe(fast.atMs.length + slow.atMs.length)
  })

  test('on the H100 runs: ESM-2 steady parts of one size agree within 2%, and grow in proportion to the size', () => {
    const record = h100Record('a1')
    const at = (records: string) =>
      record.runs
        .filter((r) => !r.warmup && r.label.includes(records))
        .map((r) => stageSteady(r.progress, 'ESM-2 Feature Extraction')!.steadyMs)
    const [k1, k4, k20] = [at('1,000 seqs'), at('4,000 seqs'), at('20,000 seqs')]
    for (const group of [k1, k4, k20])
      expect((Math.max(...group) - Math.min(...group)) / Math.min(...group)).toBeLessThan(0.02)
    const perSequence = (ms: number[], n: number) => ms[0]! / n
    expect(perSequence(k4, 4_000) / perSequence(k20, 20_000)).toBeCloseTo(1, 1)
  })
})
