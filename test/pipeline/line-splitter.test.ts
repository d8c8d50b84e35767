import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createLineSplitter, MAX_LINE_BYTES, type StreamLine } from '../../src/pipeline/line-splitter.ts'

function split(chunks: Buffer[], maxLineBytes?: number): StreamLine[] {
  const lines: StreamLine[] = []
  const splitter = createLineSplitter((line) => lines.push(line), maxLineBytes)
  for (const chunk of chunks) splitter.push(chunk)
  splitter.end()
  return lines
}

/**
 * The reference: the whole stream at once, split by a regular expression (keeping each line's end, to tell a redraw,
 * ended by a lone `\r`), each line decoded alone.
 */
function referenceSplit(whole: Buffer): { bytes: Buffer; complete: boolean; redraw: boolean }[] {
  const pieces = whole.toString('latin1').split(/(\r\n|\r|\n)/)
  const last = pieces.pop()!
  const lines = []
  for (let i = 0; i < pieces.length; i += 2)
    lines.push({ bytes: Buffer.from(pieces[i]!, 'latin1'), complete: true, redraw: pieces[i + 1] === '\r' })
  if (last !== '') lines.push({ bytes: Buffer.from(last, 'latin1'), complete: false, redraw: false })
  return lines
}

/** Lines without `redraw`, which a `\r\n` split between chunks sets (line-splitter.ts says why). */
const withoutRedraw = (lines: StreamLine[]) => lines.map(({ redraw: _, ...rest }) => rest)

/** Any bytes, with line ends, `\r\n` pairs and multi-byte characters (and their parts) common. */
const streamBytes = fc
  .array(
    fc.oneof(
      fc.constantFrom('\n', '\r', '\r\n', 'é', '€', '😀', 'x', ' ').map((s) => Buffer.from(s)),
      fc.uint8Array({ minLength: 1, maxLength: 4 }).map((a) => Buffer.from(a)),
    ),
    { maxLength: 60 },
  )
  .map((parts) => Buffer.concat(parts))

/** The stream cut into chunks at any points (empty chunks included). */
function chunked(whole: Buffer, cuts: number[]): Buffer[] {
  const points = cuts.map((c) => c % (whole.length + 1)).sort((a, b) => a - b)
  return [0, ...points].map((p, i, all) => whole.subarray(p, all[i + 1] ?? whole.length))
}

describe('createLineSplitter', () => {
  test('any split of any byte stream into chunks gives the lines of the reference split', () => {
    fc.assert(
      fc.property(streamBytes, fc.array(fc.nat(), { maxLength: 12 }), (whole, cuts) => {
        const reference = referenceSplit(whole)
        const expected = reference.map((l) => ({ text: l.bytes.toString('utf8'), cutBytes: 0, complete: l.complete }))
        const lines = split(chunked(whole, cuts))
        expect(withoutRedraw(lines)).toEqual(expected)
        // A redraw is one whatever the chunking; the whole stream at once tells each exactly.
        for (const [i, line] of lines.entries()) expect(line.redraw || !reference[i]!.redraw).toBe(true)
        expect(split([whole]).map((l) => l.redraw)).toEqual(reference.map((l) => l.redraw))
      }),
      { numRuns: 500 },
    )
  })

  test('with a cap, every chunking gives the same lines, each the start of its whole line, cut by what it lacks', () => {
    fc.assert(
      fc.property(
        streamBytes,
        fc.array(fc.nat(), { maxLength: 12 }),
        fc.integer({ min: 1, max: 12 }),
        (whole, cuts, cap) => {
          const lines = split(chunked(whole, cuts), cap)
          expect(withoutRedraw(lines)).toEqual(withoutRedraw(split([whole], cap)))
          const reference = referenceSplit(whole)
          expect(lines).toHaveLength(reference.length)
          lines.forEach((line, i) => {
            const ref = reference[i]!
            expect(line.complete).toBe(ref.complete)
            if (ref.bytes.length <= cap) expect(line).toMatchObject({ text: ref.bytes.toString('utf8'), cutBytes: 0 })
            else {
              const keptBytes = ref.bytes.length - line.cutBytes
              // Cut at the cap, or up to 3 bytes before it so that no character is split.
              expect(keptBytes).toBeLessThanOrEqual(cap)
              expect(keptBytes).toBeGreaterThanOrEqual(cap - 3)
              expect(ref.bytes.toString('utf8').startsWith(line.text)).toBe(true)
            }
          })
        },
      ),
      { numRuns: 500 },
    )
  })

  test('a line far beyond the cap is delivered cut, with the bytes cut counted, and the next line whole', () => {
    const long = Buffer.alloc(10 * MAX_LINE_BYTES + 7, 'y')
    const chunks = chunked(Buffer.concat([long, Buffer.from('\rnext\n')]), [1, 65_536, 300_000, 655_366])
    expect(split(chunks)).toEqual([
      { text: 'y'.repeat(MAX_LINE_BYTES), cutBytes: 9 * MAX_LINE_BYTES + 7, complete: true, redraw: true },
      { text: 'next', cutBytes: 0, complete: true, redraw: false },
    ])
  })

  test('a \\r\\n pair split between two chunks is one line end', () => {
    const lines = split([Buffer.from('a\r'), Buffer.from('\nb\r'), Buffer.from(''), Buffer.from('\n')])
    expect(withoutRedraw(lines)).toEqual([
      { text: 'a', cutBytes: 0, complete: true },
      { text: 'b', cutBytes: 0, complete: true },
    ])
  })
})
