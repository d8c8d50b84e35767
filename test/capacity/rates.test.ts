import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { busySteady, EXACT_SPAN_MIN_POINTS, SPAN_MIN_LINES, spanMs, stageSteady } from '../../src/capacity/rates.ts'
import { fitLine } from '../../src/measure/index.ts'
import type { StageProgress } from '../../src/results/schema/index.ts'
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

describe('steady parts where a stage logs no batch lines', () => {
  const piece = (source: 'worker-span' | 'file-lines', atMs: number[], done: number[], worker: number | null = null) =>
    ({ stage: 'S', source, worker, total: done.at(-1)!, lines: atMs.length, atMs, done }) as StageProgress

  test('a piece with exact ends needs its two points: all its items lie between them', () => {
    expect(SPAN_MIN_LINES).toBeGreaterThan(EXACT_SPAN_MIN_POINTS)
    // A v2 worker: `Starting inference on 800 sequences` at 1.0 s, `Async inference complete: 800` at 10.4 s.
    expect(spanMs(piece('worker-span', [1_000, 10_400], [0, 800]))).toBe(9_400)
    // Batch lines of the same two points: the first comes after work began, and two lines hold one batch only.
    expect(spanMs({ ...piece('worker-span', [1_000, 10_400], [0, 800]), source: undefined })).toBeNull()
  })

  test('file lines: each file from its start to its save; the time between files (a model build) is not counted', () => {
    const files = piece('file-lines', [30, 40, 70, 75], [0, 10_000, 10_000, 12_000])
    expect(spanMs(files)).toBe(15)
    expect(stageSteady([files], 'S', 'file-lines')).toEqual({
      steadyMs: 15,
      lines: 4,
      slowestWorker: null,
      source: 'file-lines',
    })
    // Thinned to some of its files: scaled to all its items.
    expect(spanMs({ ...files, atMs: [30, 40], done: [0, 10_000] })).toBeCloseTo(12, 6)
  })

  test("file counts: from a worker's first file end to its last (its first file, with its model build, left out); one file, none", () => {
    // VirNucPro v2's DNABERT-S at 3,750 records (test/fixtures/virnucpro/v2-2gpu-3750.log): GPU 1 ends its files of
    // 1,535 at 01:35:52 and 01:36:15; GPU 0 its 1,535, 1,535 and the split's remainder of 3 at 01:35:53, 01:36:15, 01:36:15.
    const gpu = (worker: number, atMs: number[], done: number[], total: number): StageProgress => ({
      stage: 'S',
      source: 'file-count',
      worker,
      total,
      lines: atMs.length,
      atMs,
      done,
    })
    const gpu1 = gpu(1, [52_000, 75_000], [1_535, 3_070], 3_070)
    const gpu0 = gpu(0, [53_000, 75_000, 75_000], [1_535, 3_070, 3_073], 3_073)
    expect(spanMs(gpu1)).toBe(46_000)
    expect(spanMs(gpu0)).toBeCloseTo((22_000 * 3_073) / 1_538, 6)
    expect(stageSteady([gpu0, gpu1], 'S', 'file-count')).toEqual({
      steadyMs: 46_000,
      lines: 5,
      slowestWorker: 1,
      source: 'file-count',
    })
    // A worker that ended one file only: no span between two file ends.
    expect(spanMs(gpu(1, [52_000], [3_070], 3_070))).toBeNull()
    expect(stageSteady([gpu0, gpu(1, [52_000], [3_070], 3_070)], 'S', 'file-count')).toBeNull()
  })

  test('tqdm: from the first draw (count 0) two points do; from a later count, three; two bars in a stage, none', () => {
    const bar = (atMs: number[], done: number[]): StageProgress => ({
      stage: 'S',
      source: 'tqdm',
      worker: null,
      total: 2_152,
      lines: atMs.length,
      atMs,
      done,
    })
    expect(spanMs(bar([0, 5_700], [0, 2_152]))).toBe(5_700)
    expect(spanMs(bar([5_640, 5_700], [1, 2_152]))).toBeNull()
    expect(spanMs(bar([5_640, 5_650, 5_700], [1, 1_001, 2_152]))).toBeCloseTo((60 * 2_152) / 2_151, 6)
    expect(stageSteady([bar([0, 5_700], [0, 2_152])], 'S', 'tqdm')?.steadyMs).toBe(5_700)
    expect(stageSteady([bar([0, 5_700], [0, 2_152]), bar([6_000, 6_100], [0, 2_152])], 'S', 'tqdm')).toBeNull()
  })

  test("each source is read on its own; without one, a stage's steady part is batch lines' as before", () => {
    const batches = sortedStage(2_000, 20, 0, 0)
    const spans = piece('worker-span', [0, 900], [0, 2_000], 0)
    expect(stageSteady([spans, batches], 'S')?.steadyMs).toBeCloseTo(spanMs(batches)!, 6)
    expect(stageSteady([spans, batches], 'S', 'worker-span')).toMatchObject({ steadyMs: 900, source: 'worker-span' })
    expect(stageSteady([spans], 'S')).toBeNull()
  })

  test("NVML busy spans: the slowest GPU's; a GPU without one (a record that predates them) gives none", () => {
    expect(
      busySteady([
        { gpu: 0, busySpanMs: 8_000 },
        { gpu: 1, busySpanMs: 9_500 },
      ]),
    ).toEqual({
      steadyMs: 9_500,
      lines: 0,
      slowestWorker: 1,
      source: 'nvml-busy',
    })
    expect(busySteady([{ gpu: 0, busySpanMs: 8_000 }, { gpu: 1 }])).toBeNull()
    expect(busySteady([{ gpu: 0, busySpanMs: 0 }])).toBeNull()
    expect(busySteady([])).toBeNull()
  })
})
