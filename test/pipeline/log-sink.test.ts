import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openLogSink } from '../../src/pipeline/log-sink.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sink-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

let n = 0
const sinkPath = () => join(dir, `d${n++}`, 'run.log')

describe('openLogSink', () => {
  test('a writer past the file backlog (1 MiB) is told to wait, and the wait ends once the file caught up', async () => {
    const path = sinkPath()
    const sink = await openLogSink(path)
    const line = Buffer.from(`${'x'.repeat(1023)}\n`)
    // Below the backlog: taken, nothing to wait for.
    expect(sink.writeBytes(line, 'stdout')).toBeUndefined()
    // 3 MiB at once: queued past the backlog, so the caller is told to stop reading until the file caught up.
    const behind = sink.writeBytes(Buffer.concat(Array.from({ length: 3 * 1024 }, () => line)), 'stdout')
    expect(behind).toBeInstanceOf(Promise)
    // One wait for every caller while behind.
    expect(sink.writeBytes(line, 'stderr')).toBe(behind)
    await behind
    expect(sink.writeBytes(line, 'stdout')).toBeUndefined()
    await sink.close()
    expect((await readFile(path)).length).toBe((3 * 1024 + 3) * 1024)
  })

  test('keeps the last N lines', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[ -~]{0,10}$/), { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        async (lines, keep) => {
          const sink = await openLogSink(sinkPath(), keep)
          for (const text of lines) sink.keepLine({ text, cutBytes: 0, complete: true, redraw: false }, 'stdout')
          expect(sink.tail()).toEqual(lines.slice(-keep))
          await sink.close()
        },
      ),
      { numRuns: 30 },
    )
  })

  test('a line draws over the redraw before it on its stream, as on a terminal; another stream keeps its own lines', async () => {
    const sink = await openLogSink(sinkPath())
    const keep = (text: string, redraw: boolean, stream: 'stdout' | 'stderr' = 'stderr') =>
      sink.keepLine({ text, cutBytes: 0, complete: true, redraw }, stream)
    keep('=== Stage 5: DNABERT-S Feature Extraction ===', false, 'stdout')
    for (const bar of ['', ' 10%|#   | 1/10', ' 20%|##  | 2/10']) keep(bar, true)
    keep('Batch 1: 100/300', true, 'stdout')
    keep(' 30%|### | 3/10', true)
    keep('100%|####| 10/10', false)
    keep('', true)
    keep('Traceback (most recent call last):', false)
    expect(sink.tail()).toEqual([
      '=== Stage 5: DNABERT-S Feature Extraction ===',
      ' 20%|##  | 2/10',
      'Batch 1: 100/300',
      '100%|####| 10/10',
      'Traceback (most recent call last):',
    ])
    await sink.close()
  })

  test("each stream's bytes reach the file in order, and no line of one stream is cut by a line of the other", async () => {
    // stdout writes lower case, stderr upper case: the file's letters of each case are that stream's, in order.
    const text = (letters: string) => fc.stringMatching(new RegExp(`^[${letters}\\r\\n]{0,30}$`))
    const chunk = fc.oneof(
      fc.tuple(fc.constant('stdout' as const), text('a-z')),
      fc.tuple(fc.constant('stderr' as const), text('A-Z')),
    )
    await fc.assert(
      fc.asyncProperty(fc.array(chunk, { maxLength: 12 }), async (written) => {
        const sink = await openLogSink(sinkPath())
        for (const [stream, chunk] of written) sink.writeBytes(Buffer.from(chunk), stream)
        await sink.close()
        const file = await readFile(sink.path, 'latin1')
        const of = (stream: string) =>
          written
            .filter(([s]) => s === stream)
            .map(([, c]) => c)
            .join('')
        expect(file.replace(/[^a-z]/g, '')).toBe(of('stdout').replace(/[^a-z]/g, ''))
        expect(file.replace(/[^A-Z]/g, '')).toBe(of('stderr').replace(/[^A-Z]/g, ''))
        expect(file.length).toBe(of('stdout').length + of('stderr').length)
        // The last line may join both streams' unfinished lines (each is written when the run ends).
        const mixed = file
          .split(/\r\n|\r|\n/)
          .slice(0, -1)
          .filter((l) => /[a-z]/.test(l) && /[A-Z]/.test(l))
        expect(mixed).toEqual([])
      }),
      { numRuns: 100 },
    )
  })

  test('a stdout line (or its \\r\\n) split across chunks is not cut by stderr lines that arrive in between', async () => {
    const sink = await openLogSink(sinkPath())
    sink.writeBytes(Buffer.from('=== Stage 1: Sequ'), 'stdout')
    sink.writeBytes(Buffer.from('Traceback (most recent call last):\n'), 'stderr')
    sink.writeBytes(Buffer.from('ence Chunking ===\r'), 'stdout')
    sink.writeBytes(Buffer.from('  File "x.py", line 1\n'), 'stderr')
    sink.writeBytes(Buffer.from('\n\rbar 1/2\rbar 2/2'), 'stdout')
    await sink.close()
    expect(await readFile(sink.path, 'utf8')).toBe(
      'Traceback (most recent call last):\n  File "x.py", line 1\n=== Stage 1: Sequence Chunking ===\r\n\rbar 1/2\rbar 2/2',
    )
  })
})
