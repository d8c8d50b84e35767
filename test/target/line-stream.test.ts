import { PassThrough, Readable } from 'node:stream'
import { describe, expect, test } from 'vitest'
import type { StreamLine } from '../../src/target/line-splitter.ts'
import { forEachLine } from '../../src/target/line-stream.ts'

async function feed(chunks: (string | Buffer)[], onChunk?: (chunk: Buffer) => void): Promise<StreamLine[]> {
  const stream = new PassThrough()
  const lines: StreamLine[] = []
  const done = forEachLine(stream, (line) => lines.push(line), onChunk)
  for (const chunk of chunks) stream.write(chunk)
  stream.end()
  await done
  return lines
}

describe('forEachLine', () => {
  test('\\n, \\r\\n and \\r end a line; a last line without an end is passed as incomplete', async () => {
    expect((await feed(['a\nb\r\nc\rd'])).map((l) => [l.text, l.complete])).toEqual([
      ['a', true],
      ['b', true],
      ['c', true],
      ['d', false],
    ])
  })

  test('the bytes come as written, invalid UTF-8 included; a character cut between chunks is one character in the line', async () => {
    const written = Buffer.from([0x61, 0xff, 0x0a, 0x63, 0x61, 0x66, 0xc3, 0xa9, 0x0a])
    const bytes: Buffer[] = []
    // Cut inside é (0xc3 0xa9).
    const lines = await feed([written.subarray(0, 7), written.subarray(7)], (chunk) => bytes.push(chunk))
    expect(Buffer.concat(bytes)).toEqual(written)
    expect(lines.map((l) => l.text)).toEqual(['a\uFFFD', 'café'])
  })

  test('a destroyed stream still ends the promise, with its pending line', async () => {
    const stream = new PassThrough()
    const lines: StreamLine[] = []
    const done = forEachLine(stream, (line) => lines.push(line))
    stream.write('cut mid-li')
    await new Promise((r) => setImmediate(r))
    stream.destroy()
    await done
    expect(lines).toEqual([{ text: 'cut mid-li', cutBytes: 0, complete: false, redraw: false }])
  })
})

describe('forEachLine on a long tqdm stream', () => {
  /**
   * `hours` of a bar redrawn 10 times a second, `\r` before each redraw, one chunk a redraw: what the pipe of a
   * pipeline writing at 10 Hz delivers (each write read on its own), compressed in time.
   */
  function tqdmChunks(hours: number): Buffer[] {
    const total = hours * 36_000
    const chunks: Buffer[] = []
    for (let n = 0; n <= total; n++)
      chunks.push(
        Buffer.from(
          `\rDNABERT-S: ${Math.floor((n / total) * 100)}%|#####     | ${n}/${total} [00:10<00:20, 10.00it/s]`,
        ),
      )
    return chunks
  }

  async function bytesPerMs(chunks: Buffer[]): Promise<number> {
    let lines = 0
    const t0 = performance.now()
    await forEachLine(Readable.from(chunks), () => lines++)
    const ms = performance.now() - t0
    expect(lines).toBe(chunks.length + 1)
    return chunks.reduce((sum, c) => sum + c.length, 0) / ms
  }

  test('reads 10 hours (35 MB on one physical line, 360,000 chunks) at the pace it reads 1 hour: linear time', async () => {
    const hour = tqdmChunks(1)
    const tenHours = tqdmChunks(10)
    // Best of two each: the pace, not a pause of a busy machine. The old reader re-scanned (and copied) the pending
    // line for every chunk: for 1 hour alone 36,000 chunks times 1.8 MB on average, past this test's time limit.
    const pace = async (chunks: Buffer[]) => Math.max(await bytesPerMs(chunks), await bytesPerMs(chunks))
    expect(await pace(tenHours)).toBeGreaterThan((await pace(hour)) / 3)
  })
})
