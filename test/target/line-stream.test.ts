import { PassThrough } from 'node:stream'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { forEachLine } from '../../src/target/line-stream.ts'

async function feed(chunks: string[]): Promise<[string, boolean][]> {
  const stream = new PassThrough()
  const lines: [string, boolean][] = []
  const done = forEachLine(stream, (line, complete) => lines.push([line, complete]))
  for (const chunk of chunks) stream.write(chunk)
  stream.end()
  await done
  return lines
}

describe('forEachLine', () => {
  test('a last line without newline is passed as incomplete', async () => {
    expect(await feed(['a\nb\r\nc'])).toEqual([
      ['a', true],
      ['b', true],
      ['c', false],
    ])
  })

  test('however the text is chunked, the lines are the same', async () => {
    const text = fc
      .array(fc.stringMatching(/^[^\n\r]{0,20}$/), { maxLength: 20 })
      .map((ls) => ls.map((l) => `${l}\n`).join(''))
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(), { maxLength: 10 }), async (whole, cuts) => {
        const points = [...new Set(cuts.map((c) => c % (whole.length + 1)))].sort((a, b) => a - b)
        const chunks = [0, ...points].map((p, i, all) => whole.slice(p, all[i + 1] ?? whole.length))
        const expected = whole
          .split('\n')
          .slice(0, -1)
          .map((l): [string, boolean] => [l, true])
        expect(await feed(chunks)).toEqual(expected)
      }),
      { numRuns: 50 },
    )
  })
})

describe('forEachLine with the bytes', () => {
  test('the bytes come as written, invalid UTF-8 included; a character cut between chunks is one character in the line', async () => {
    const written = Buffer.from([0x61, 0xff, 0x0a, 0x63, 0x61, 0x66, 0xc3, 0xa9, 0x0a])
    const stream = new PassThrough()
    const lines: string[] = []
    const bytes: Buffer[] = []
    const done = forEachLine(
      stream,
      (line) => lines.push(line),
      (chunk) => bytes.push(chunk),
    )
    // Cut inside é (0xc3 0xa9).
    stream.write(written.subarray(0, 7))
    stream.write(written.subarray(7))
    stream.end()
    await done
    expect(Buffer.concat(bytes)).toEqual(written)
    expect(lines).toEqual(['a\uFFFD', 'café'])
  })
})
