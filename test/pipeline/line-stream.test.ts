import { PassThrough, Readable } from 'node:stream'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { StreamLine } from '../../src/pipeline/line-splitter.ts'
import { forEachLine, type LineTiming } from '../../src/pipeline/line-stream.ts'

async function feed(chunks: (string | Buffer)[], onChunk?: (chunk: Buffer) => void): Promise<StreamLine[]> {
  const stream = new PassThrough()
  const lines: StreamLine[] = []
  const done = forEachLine(stream, (line) => lines.push(line), onChunk)
  for (const chunk of chunks) stream.write(chunk)
  stream.end()
  await done
  return lines
}

/** Feeds `chunks` with the clock at 100 ms a chunk (the end after the last): each line's text and times. */
async function timed(chunks: string[]): Promise<[string, number, number][]> {
  let calls = 0
  const lines: [string, number, number][] = []
  const onLine = (line: StreamLine, t: LineTiming) => lines.push([line.text, t.startedAtMs, t.atMs])
  await forEachLine(Readable.from(chunks.map((c) => Buffer.from(c))), onLine, undefined, undefined, () => 100 * calls++)
  return lines
}

/** Oracle: each line's text, the chunk holding its first byte (its end, for an empty line) and the one holding its end. */
function expectedTimes(chunks: string[]): [string, number, number][] {
  const text = chunks.join('')
  const chunkOf = (at: number) => {
    let end = 0
    for (let k = 0; k < chunks.length; k++) {
      end += chunks[k]!.length
      if (at < end) return 100 * k
    }
    return 100 * chunks.length
  }
  const out: [string, number, number][] = []
  let start = 0
  for (let i = 0; i < text.length; i++) {
    if (text[i] !== '\n' && text[i] !== '\r') continue
    out.push([text.slice(start, i), chunkOf(start === i ? i : start), chunkOf(i)])
    start = text[i] === '\r' && text[i + 1] === '\n' ? i + 2 : i + 1
    if (start === i + 2) i++
  }
  if (start < text.length) out.push([text.slice(start), chunkOf(start), 100 * chunks.length])
  return out
}

describe('forEachLine: when a line came', () => {
  test('a tqdm redraw is timed by its first byte: the next write, which ends it, may come much later', async () => {
    expect(await timed(['\rbar 0', '\rbar 1', '\rbar 2 glued log\n', 'a', 'b', 'c\nd\n', 'tail'])).toEqual([
      ['', 0, 0],
      ['bar 0', 0, 100],
      ['bar 1', 100, 200],
      ['bar 2 glued log', 200, 200],
      ['abc', 300, 500],
      ['d', 500, 500],
      ['tail', 600, 700],
    ])
  })

  test('any text cut into any chunks: each line starts with the chunk of its first byte, ends with that of its end', async () => {
    const text = fc.array(fc.constantFrom('a', 'b', '\n', '\r'), { maxLength: 40 }).map((c) => c.join(''))
    await fc.assert(
      fc.asyncProperty(text, fc.array(fc.nat(40), { maxLength: 6 }), async (t, cuts) => {
        const at = [...new Set([0, ...cuts.map((c) => Math.min(c, t.length)), t.length])].sort((a, b) => a - b)
        const chunks = at
          .slice(1)
          .map((end, i) => t.slice(at[i], end))
          .filter((c) => c !== '')
        expect(await timed(chunks)).toEqual(expectedTimes(chunks))
      }),
    )
  })
})

describe('forEachLine', () => {
  test('a promise from onChunk pauses the stream until it settles; no line is lost', async () => {
    const stream = new PassThrough()
    let release = () => {}
    const lines: string[] = []
    const done = forEachLine(
      stream,
      (line) => lines.push(line.text),
      (chunk) => (chunk.includes('wait') ? new Promise<void>((r) => (release = r)) : undefined),
    )
    stream.write('one\nwait\n')
    await new Promise((r) => setImmediate(r))
    expect(stream.isPaused()).toBe(true)
    stream.end('two\n')
    await new Promise((r) => setImmediate(r))
    expect(lines).toEqual(['one', 'wait'])
    release()
    await done
    expect(stream.isPaused()).toBe(false)
    expect(lines).toEqual(['one', 'wait', 'two'])
  })

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
