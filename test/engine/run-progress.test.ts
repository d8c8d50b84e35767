import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createProgressCollector, itemsAfterFiles, thinnedIndices } from '../../src/engine/run-progress.ts'
import type { TargetEvent } from '../../src/pipeline/events.ts'

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

  const ESM2 = 'ESM-2 Feature Extraction'
  const tqdm = (done: number, total: number, atMs: number, label = 'Translating sequences'): TargetEvent => ({
    type: 'tqdm',
    label,
    done,
    total,
    elapsedS: 0,
    atMs,
  })

  test("worker spans: each worker's loop a pair of points, its start and its end; an end without a start is none", () => {
    const c = createProgressCollector()
    c.push({ type: 'inference-start', sequences: 800, worker: 0, atMs: 10 }, ESM2)
    c.push({ type: 'inference-start', sequences: 799, worker: 1, atMs: 12 }, ESM2)
    c.push(
      { type: 'inference-complete', sequences: 799, sequencesPerS: null, tokensPerS: null, worker: 1, atMs: 40 },
      ESM2,
    )
    c.push(
      { type: 'inference-complete', sequences: 800, sequencesPerS: null, tokensPerS: null, worker: 0, atMs: 50 },
      ESM2,
    )
    c.push({ type: 'inference-complete', sequences: 5, sequencesPerS: 1, tokensPerS: 1, worker: 2, atMs: 60 }, ESM2)
    expect(c.series().map((p) => [p.source, p.worker, p.total, p.atMs, p.done])).toEqual([
      ['worker-span', 1, 799, [12, 40], [0, 799]],
      ['worker-span', 0, 800, [10, 50], [0, 800]],
    ])
  })

  test('file lines: a file from `Extracting` (or its model `ready`) to `Saved`; the gap before the next file is no work', () => {
    const c = createProgressCollector()
    const file = (type: 'file-start' | 'model-ready' | 'file-done', atMs: number, sequences = 0): TargetEvent =>
      type === 'model-ready'
        ? { type, label: 'ESM-2', worker: null, atMs }
        : type === 'file-start'
          ? { type, label: 'ESM-2', file: 'f', worker: null, atMs }
          : { type, label: 'ESM-2', file: 'f', sequences, worker: null, atMs }
    // The split before the stage sizes its files; then the stage's own `Extracting ESM-2 features from protein
    // sequences`, then two files, each building its model (28 and 29 ms from `Extracting` to `ready`).
    c.push({ type: 'file-split', sequencesPerFile: 10_000, worker: null, atMs: 0 }, 'Protein File Splitting')
    for (const [type, atMs, n] of [
      ['file-start', 1],
      ['file-start', 2],
      ['model-ready', 30],
      ['file-done', 40, 10_000],
      ['file-start', 41],
      ['model-ready', 70],
      ['file-done', 75, 2_000],
    ] as const)
      c.push(file(type, atMs, n), ESM2)
    c.push({ type: 'model-ready', label: 'DNABERT-S', worker: null, atMs: 80 }, ESM2)
    expect(c.series()).toEqual([
      {
        stage: ESM2,
        source: 'file-lines',
        worker: null,
        total: 12_000,
        lines: 4,
        atMs: [30, 40, 70, 75],
        done: [0, 10_000, 10_000, 12_000],
        setupMs: 57,
        itemsPerFile: 10_000,
      },
    ])
  })

  test("file counts: a worker's items after each file, full files first and the split's remainder last", () => {
    const c = createProgressCollector()
    const stage = 'DNABERT-S Feature Extraction'
    c.push({ type: 'file-split', sequencesPerFile: 1_535, worker: null, atMs: 0 }, 'Protein File Splitting')
    c.push({ type: 'files-assigned', worker: 0, files: 3, sequences: 3_073, atMs: 10 }, stage)
    c.push({ type: 'files-assigned', worker: 1, files: 2, sequences: 3_070, atMs: 10 }, stage)
    c.push({ type: 'files-done', worker: 1, done: 1, total: 2, atMs: 52_000 }, stage)
    c.push({ type: 'files-done', worker: 0, done: 1, total: 3, atMs: 53_000 }, stage)
    c.push({ type: 'files-done', worker: 1, done: 2, total: 2, atMs: 75_000 }, stage)
    c.push({ type: 'files-done', worker: 0, done: 2, total: 3, atMs: 75_000 }, stage)
    c.push({ type: 'files-done', worker: 0, done: 3, total: 3, atMs: 75_100 }, stage)
    // A count of another assignment (a stage that handed out other files) is not this worker's.
    c.push({ type: 'files-done', worker: 1, done: 1, total: 5, atMs: 80_000 }, stage)
    expect(c.series().map(({ worker, source, total, atMs, done }) => ({ worker, source, total, atMs, done }))).toEqual([
      { worker: 1, source: 'file-count', total: 3_070, atMs: [52_000, 75_000], done: [1_535, 3_070] },
      { worker: 0, source: 'file-count', total: 3_073, atMs: [53_000, 75_000, 75_100], done: [1_535, 3_070, 3_073] },
    ])
  })

  test('items after k files: from 0 to all of them, never back, a file at most the split size where it fits', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 20_000 }),
        fc.integer({ min: 0, max: 20_000 }),
        fc.boolean(),
        (files, perFile, extra, known) => {
          // A worker's items: full files and a last one of 1..perFile, or (unknown split) anything.
          const items = known ? (files - 1) * perFile + 1 + (extra % perFile) : 1 + extra
          const at = (k: number) => itemsAfterFiles(k, files, items, known ? perFile : null)
          expect(at(0)).toBe(0)
          expect(at(files)).toBe(items)
          for (let k = 1; k <= files; k++) {
            expect(at(k)).toBeGreaterThanOrEqual(at(k - 1))
            if (known) expect(at(k) - at(k - 1)).toBeLessThanOrEqual(perFile)
          }
        },
      ),
    )
    // Counts that do not fit the split (more items than its files hold): files taken as equal.
    expect(itemsAfterFiles(1, 2, 5_000, 1_000)).toBe(2_500)
  })

  test('tqdm: one point per count shown (the first draw at 0 kept); a bar whose count goes back is another bar', () => {
    const c = createProgressCollector()
    for (const [done, atMs] of [
      [0, 1],
      [0, 2],
      [1, 50],
      [2_152, 51],
      [2_152, 52],
      [3, 60],
      [9, 61],
    ])
      c.push(tqdm(done!, 2_152, atMs!), 'Six-Frame Translation')
    c.push(tqdm(5, 9, 70), null)
    expect(c.series().map((p) => [p.source, p.lines, p.total, p.atMs, p.done])).toEqual([
      ['tqdm', 5, 2_152, [1, 50, 51], [0, 1, 2_152]],
      ['tqdm', 2, 2_152, [60, 61], [3, 9]],
    ])
  })

  test('paired series are thinned by whole pieces: every start keeps its end', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 400 }), fc.integer({ min: 4, max: 50 }), (files, max) => {
        const c = createProgressCollector(max)
        for (let f = 0; f < files; f++) {
          c.push({ type: 'file-start', label: 'DNABERT-S', file: `${f}`, worker: null, atMs: 10 * f }, 'S')
          c.push(
            { type: 'file-done', label: 'DNABERT-S', file: `${f}`, sequences: 10, worker: null, atMs: 10 * f + 7 },
            'S',
          )
        }
        const [p] = c.series()
        expect(p!.atMs.length % 2).toBe(0)
        expect(p!.atMs.length).toBeLessThanOrEqual(Math.max(2, max))
        for (let i = 0; i < p!.atMs.length; i += 2) {
          expect(p!.atMs[i + 1]! - p!.atMs[i]!).toBe(7)
          expect(p!.done[i + 1]! - p!.done[i]!).toBe(10)
        }
      }),
    )
  })
})
