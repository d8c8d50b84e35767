import { mkdtemp, readFile, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { openLogSink } from '../../src/target/log-sink.ts'

let dir: string
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'sink-'))
})
afterAll(() => rm(dir, { recursive: true, force: true }))

describe('openLogSink', () => {
  test('writes every line to the file (creating its folder) and keeps the last N', async () => {
    let n = 0
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.stringMatching(/^[^\n]{0,10}$/), { maxLength: 40 }),
        fc.integer({ min: 1, max: 8 }),
        async (lines, keep) => {
          const sink = await openLogSink(join(dir, `d${n++}`, 'run.log'), keep)
          for (const line of lines) sink.write(line)
          expect(sink.tail()).toEqual(lines.slice(-keep))
          await sink.close()
          expect(await readFile(sink.path, 'utf8')).toBe(lines.map((l) => `${l}\n`).join(''))
        },
      ),
      { numRuns: 30 },
    )
  })
})
