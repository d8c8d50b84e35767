import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { TargetEvent } from '../../src/pipeline/events.ts'
import { textLines } from '../../src/pipeline/log-file-lines.ts'
import { createLogParser } from '../../src/pipeline/log-parser.ts'
import { parseWorkLine } from '../../src/pipeline/work-lines.ts'
import { VIRNUCPRO_FIXTURES } from './support/replay-profile.ts'
import { pyGrouped } from './support/upstream-format.ts'

const parseFile = (file: string): TargetEvent[] => {
  const parser = createLogParser()
  return textLines(readFileSync(join(VIRNUCPRO_FIXTURES, file), 'utf8')).flatMap((l, i) => parser.push(l, i))
}
const kinds = new Set(['inference-start', 'inference-complete', 'file-start', 'model-ready', 'file-done'])
const work = (events: TargetEvent[]) =>
  events.filter((e) => kinds.has(e.type)).map(({ atMs: _, ...e }) => e as Omit<TargetEvent, 'atMs'>)

describe('the lines that bound a piece of work', () => {
  test("v2's workers: each loop's start and end with its sequences; `0.0 seq/s, 0 tokens/s` reads as no rate", () => {
    expect(work(parseFile('v2-2gpu.stderr'))).toEqual([
      { type: 'model-ready', label: 'ESM-2', worker: 1 },
      { type: 'inference-start', sequences: 799, worker: 1 },
      { type: 'model-ready', label: 'ESM-2', worker: 0 },
      { type: 'inference-start', sequences: 800, worker: 0 },
      { type: 'inference-complete', sequences: 799, sequencesPerS: null, tokensPerS: null, worker: 1 },
      { type: 'inference-complete', sequences: 800, sequencesPerS: null, tokensPerS: null, worker: 0 },
    ])
  })

  test("v1's files: `Extracting`, the model's `ready`, `Saved (N sequences)`; the stage's own `Extracting` line too", () => {
    const files = work(parseFile('v1-1gpu.stdout'))
    expect(files.map((e) => [e.type, 'label' in e ? e.label : null, 'sequences' in e ? e.sequences : null])).toEqual([
      ['file-start', 'DNABERT-S', null],
      ['file-done', 'DNABERT-S', 1_599],
      // prediction.py's `Extracting ESM-2 features from protein sequences`: a start no `Saved` follows for itself.
      ['file-start', 'ESM-2', null],
      ['file-start', 'ESM-2', null],
      ['model-ready', 'ESM-2', null],
      ['file-done', 'ESM-2', 1_599],
    ])
  })

  test('counts printed with `{:,}` read back; a rate of 0 is none, any other is read', () => {
    fc.assert(
      fc.property(fc.maxSafeNat(), fc.integer({ min: 0, max: 1e6 }), (n, tenths) => {
        const start = parseWorkLine(`Starting inference on ${pyGrouped(n)} sequences (buffer size: 2000)`, 0, 1, [])
        expect(start).toEqual({ type: 'inference-start', sequences: n, worker: 0, atMs: 1 })
        const rate = (tenths / 10).toFixed(1)
        const done = parseWorkLine(
          `Async inference complete: ${n} sequences, ${rate} seq/s, ${tenths} tokens/s`,
          2,
          3,
          [],
        )
        expect(done).toMatchObject({
          sequences: n,
          sequencesPerS: tenths === 0 ? null : tenths / 10,
          tokensPerS: tenths === 0 ? null : tenths,
        })
        const saved = parseWorkLine(`Saved ESM-2 features to /o/x_ESM.pt (${pyGrouped(n)} sequences)`, null, 4, [])
        expect(saved).toMatchObject({ type: 'file-done', label: 'ESM-2', file: '/o/x_ESM.pt', sequences: n })
      }),
    )
  })

  test("the split's file size: `Splitting FILE into files of N sequences`, in both of v1's splits; 0 or too large is none", () => {
    const splits = parseFile('v1-1gpu.stdout').filter((e) => e.type === 'file-split')
    expect(splits.map((e) => e.type === 'file-split' && e.sequencesPerFile)).toEqual([10_000, 10_000])
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 40 }), (n) => {
        const line = `Splitting /tmp/o1/part-001_protein.faa into files of ${pyGrouped(n)} sequences`
        expect(parseWorkLine(line, null, 7, [])).toEqual({
          type: 'file-split',
          sequencesPerFile: n,
          worker: null,
          atMs: 7,
        })
      }),
    )
    expect(parseWorkLine('Splitting x.fa into files of 0 sequences', null, 0, [])).toBeNull()
    const problems: string[] = []
    expect(parseWorkLine(`Splitting x.fa into files of ${'9'.repeat(400)} sequences`, null, 0, problems)).toBeNull()
    expect(problems).toHaveLength(1)
    // The stage's own line about the split size is not the split.
    expect(parseWorkLine('Splitting protein sequences into batches of 10000', null, 0, [])).toBeNull()
  })

  test('a count no double holds is no event, and is named; other lines are none', () => {
    const problems: string[] = []
    expect(parseWorkLine(`Starting inference on ${'9'.repeat(30)} sequences`, 0, 0, problems)).toBeNull()
    expect(problems).toHaveLength(1)
    expect(parseWorkLine('Saved merged features to /o/m.pt (shape: torch.Size([1599, 3328]))', null, 0, [])).toBeNull()
    expect(parseWorkLine('Inference complete: 799 new sequences', 1, 0, [])).toBeNull()
  })

  test("v2's DNABERT-S files per worker: `Worker W: F files, N sequences`, then `GPU W: K/F files (P%)` as each ends", () => {
    const files = parseFile('v2-2gpu-3750.log').filter((e) => e.type === 'files-assigned' || e.type === 'files-done')
    expect(files.map(({ atMs: _, ...e }) => e)).toEqual([
      { type: 'files-assigned', worker: 0, files: 3, sequences: 3_073 },
      { type: 'files-assigned', worker: 1, files: 2, sequences: 3_070 },
      { type: 'files-done', worker: 1, done: 1, total: 2 },
      { type: 'files-done', worker: 0, done: 1, total: 3 },
      { type: 'files-done', worker: 1, done: 2, total: 2 },
      { type: 'files-done', worker: 0, done: 2, total: 3 },
      { type: 'files-done', worker: 0, done: 3, total: 3 },
    ])
    // The dashboard's opening `  GPU 0: 3 files` and the work queue's `Worker 0: 3 files assigned` are no count.
    const none = (m: string) => expect(parseWorkLine(m, null, 0, [])).toBeNull()
    none('  GPU 0: 3 files')
    none('  Worker 0: 3 files assigned')
    none('GPU 0: 4/3 files (133.3%)')
    none('GPU 0: 0/0 files (0.0%)')
  })

  test('a file count or an assignment, however written, reads back as written', () => {
    fc.assert(
      fc.property(
        fc.nat(15),
        fc.integer({ min: 1, max: 10_000 }),
        fc.nat(10_000),
        fc.nat(10_000_000),
        (w, total, k, n) => {
          const done = k % (total + 1)
          expect(
            parseWorkLine(`GPU ${w}: ${done}/${total} files (${((100 * done) / total).toFixed(1)}%)`, null, 5, []),
          ).toEqual({
            type: 'files-done',
            worker: w,
            done,
            total,
            atMs: 5,
          })
          expect(
            parseWorkLine(`  Worker ${w}: ${total} files, ${n.toLocaleString('en-US')} sequences`, null, 5, []),
          ).toEqual({
            type: 'files-assigned',
            worker: w,
            files: total,
            sequences: n,
            atMs: 5,
          })
        },
      ),
    )
  })
})
