import { createHash } from 'node:crypto'
import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, test } from 'vitest'
import { FileSink, SinkWriteError } from '../../src/input/file-sink.ts'

const root = await mkdtemp(join(tmpdir(), 'fixtures-sink-'))
afterAll(() => rm(root, { recursive: true, force: true }))

/** Fills buffers from the pool (waiting for one when all are out) with `chunks` of bytes, in order. */
async function writeChunks(sink: FileSink, chunks: Uint8Array[]): Promise<void> {
  for (const chunk of chunks) {
    let buffer = sink.acquire(chunk.length)
    while (buffer === undefined) {
      await sink.bufferReturned()
      buffer = sink.acquire(chunk.length)
    }
    buffer.set(chunk)
    sink.submit(buffer, chunk.length)
  }
}

describe('FileSink', () => {
  test('writes files one after another, each with its sha256 and size, more buffers than the pool holds', async () => {
    const sink = new FileSink(1024)
    try {
      for (const name of ['a.fa', 'b.fa']) {
        const chunks = Array.from({ length: 20 }, (_, i) => new Uint8Array(1000 + i).fill(name.charCodeAt(0) + i))
        sink.open(join(root, name))
        await writeChunks(sink, chunks)
        const file = await sink.close()
        const data = await readFile(join(root, name))
        expect(data.equals(Buffer.concat(chunks))).toBe(true)
        expect(file).toEqual({
          path: join(root, name),
          bytes: data.length,
          sha256: createHash('sha256').update(data).digest('hex'),
        })
      }
    } finally {
      await sink.stop()
    }
  })

  test('a buffer larger than the pool buffers is made on demand', async () => {
    const sink = new FileSink(16)
    expect(sink.acquire(100)!.length).toBe(100)
    await sink.stop()
  })

  test('a file that cannot be opened fails at close naming it, and the buffers still come back', async () => {
    const sink = new FileSink(64)
    const path = join(root, 'missing-dir', 'x.fa')
    sink.open(path)
    await writeChunks(
      sink,
      Array.from({ length: 8 }, () => new Uint8Array(64)),
    )
    const error = await sink.close().catch((e: unknown) => e)
    expect(error).toBeInstanceOf(SinkWriteError)
    expect((error as SinkWriteError).message).toMatch(new RegExp(`^writing ${path} failed: ENOENT`))
    expect((error as SinkWriteError).code).toBe('ENOENT')
    for (let i = 0; i < 3; i++) expect(sink.acquire(64)).toBeDefined()
    await sink.stop()
  })

  test('stop waits for the writes of a file left open and closes it without throwing', async () => {
    const sink = new FileSink(64)
    sink.open(join(root, 'left-open.fa'))
    await writeChunks(sink, [new Uint8Array(10).fill(65)])
    await expect(sink.stop()).resolves.toBeUndefined()
    expect((await readFile(join(root, 'left-open.fa'))).length).toBe(10)
  })
})
