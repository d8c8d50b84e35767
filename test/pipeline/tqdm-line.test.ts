import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { textLines } from '../../src/pipeline/log-file-lines.ts'
import { splitLogLine } from '../../src/pipeline/log-line.ts'
import { parseTqdmRedraw } from '../../src/pipeline/tqdm-line.ts'
import { VIRNUCPRO_FIXTURES } from './support/replay-profile.ts'
import { tqdmRedraw } from './support/upstream-format.ts'

const redraw = (o: Parameters<typeof tqdmRedraw>[0]) => tqdmRedraw(o).slice(1)

describe('tqdm redraws', () => {
  test("every bar of the unmodified VirNucPro's v1 run, also where a log line is glued after it", () => {
    const lines = textLines(readFileSync(join(VIRNUCPRO_FIXTURES, 'v1-1gpu.stdout'), 'utf8'))
    const bars = lines.flatMap((raw) => {
      const line = splitLogLine(raw)
      const bar = parseTqdmRedraw(line.timestamp === null ? line.message : (line.glued ?? ''))
      return bar ? [[bar.label, bar.done, bar.total, bar.elapsedS]] : []
    })
    // Every `%|` in the file is one redraw, and each is read.
    expect(bars).toHaveLength(lines.filter((l) => l.includes('%|')).length)
    expect(bars.slice(0, 6)).toEqual([
      ['Chunking sequences', 0, 1_000, 0],
      ['Chunking sequences', 1_000, 1_000, 0],
      ['Chunking sequences', 1_000, 1_000, 0],
      ['Translating sequences', 0, 2_152, 0],
      ['Translating sequences', 1, 2_152, 5],
      ['Translating sequences', 2_152, 2_152, 5],
    ])
    expect(bars).toContainEqual(['ESM-2 extraction', 1, 1, 40])
  })

  test('any redraw tqdm draws in that layout reads back: label, count, total, elapsed seconds', () => {
    const desc = fc.string({ maxLength: 30 }).filter((s) => !/[\r\n]/.test(s))
    fc.assert(
      fc.property(
        desc,
        fc.integer({ min: 0, max: 1e7 }),
        fc.integer({ min: 1, max: 1e7 }),
        fc.integer({ min: 0, max: 200_000 }),
        fc.constantFrom('it', 'seq', 'file'),
        (d, a, b, elapsedS, unit) => {
          const [n, total] = [Math.min(a, b), Math.max(a, b)]
          expect(parseTqdmRedraw(redraw({ desc: d, n, total, elapsedS, unit }))).toEqual({
            label: d === '' ? null : d,
            done: n,
            total,
            elapsedS,
          })
        },
      ),
    )
  })

  test('no total, unit-scaled counts, a count no double holds, or other text: no redraw, never a throw', () => {
    expect(parseTqdmRedraw('Reading: 1234it [00:01, 999.00it/s]')).toBeNull()
    expect(parseTqdmRedraw('Reading:  50%|#####     | 1.2k/2.4k [00:01<00:01, 1.20kit/s]')).toBeNull()
    const problems: string[] = []
    expect(
      parseTqdmRedraw(
        redraw({ desc: 'x', n: 1, total: 2, elapsedS: 1 }).replace('/2 ', `/${'9'.repeat(400)} `),
        problems,
      ),
    ).toBeNull()
    expect(problems).toEqual([expect.stringMatching(/^a tqdm total '9{20}…' \(400 characters\) is beyond/)])
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const bar = parseTqdmRedraw(s)
        if (bar) expect(Number.isSafeInteger(bar.done) && Number.isSafeInteger(bar.total)).toBe(true)
      }),
    )
  })
})
