import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseFirstBatchLine } from '../../src/pipeline/first-batch-line.ts'
import { textLines } from '../../src/pipeline/log-file-lines.ts'
import { createLogParser } from '../../src/pipeline/log-parser.ts'
import { VIRNUCPRO_FIXTURES } from './support/replay-profile.ts'
import { pyFixed, workerLine } from './support/upstream-format.ts'

/** async_inference.py's line: `First batch ready after {t:.1f}s buffering ({n} sequences, {k} tokens). ...`. */
const firstBatch = (seconds: number, sequences: number, tokens: number) =>
  `First batch ready after ${pyFixed(seconds, 1)}s buffering (${sequences} sequences, ${tokens} tokens). Processing starting...`

describe("a v2 ESM-2 worker's `First batch ready` line", () => {
  test('the real 2-GPU log: one per worker, before its first `Batch` line', () => {
    const parser = createLogParser()
    const log = readFileSync(join(VIRNUCPRO_FIXTURES, 'v2-2gpu-3750.log'), 'utf8')
    const events = textLines(log).flatMap((line, i) => parser.push(line, i))
    const first = events.filter((e) => e.type === 'first-batch')
    expect(first.map(({ atMs: _, ...e }) => e)).toEqual([
      { type: 'first-batch', bufferingS: 18.7, sequences: 97, tokens: 16_296, worker: 0 },
      { type: 'first-batch', bufferingS: 18.3, sequences: 97, tokens: 16_296, worker: 1 },
    ])
    for (const f of first) {
      const batch = events.find((e) => e.type === 'batch' && e.worker === f.worker)!
      expect(batch.atMs).toBeGreaterThan(f.atMs)
    }
  })

  test('any counts and seconds read back, from the worker line as the parser sees it; other lines are none', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 1e7 }),
        fc.maxSafeNat(),
        fc.maxSafeNat(),
        fc.integer({ min: 0, max: 63 }),
        (tenths, sequences, tokens, rank) => {
          const line = firstBatch(tenths / 10, sequences, tokens)
          expect(parseFirstBatchLine(line, rank, 5, [])).toEqual({
            type: 'first-batch',
            bufferingS: tenths / 10,
            sequences,
            tokens,
            worker: rank,
            atMs: 5,
          })
          const events = createLogParser().push(workerLine(rank, line), 7)
          expect(events.filter((e) => e.type === 'first-batch')).toHaveLength(1)
        },
      ),
    )
    fc.assert(
      fc.property(fc.string(), (text) => {
        fc.pre(!text.startsWith('First batch ready after '))
        expect(parseFirstBatchLine(text, 0, 0, [])).toBeNull()
      }),
    )
  })

  test('a count no double holds is no event but a problem naming it', () => {
    const problems: string[] = []
    expect(
      parseFirstBatchLine(firstBatch(1, 1, 1).replace('1 tokens', `${'9'.repeat(400)} tokens`), 0, 0, problems),
    ).toBeNull()
    expect(problems).toEqual([expect.stringMatching(/^first-batch tokens '9+…' \(400 characters\) is beyond/)])
  })
})
