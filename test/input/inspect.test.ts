import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, test } from 'vitest'
import { inspectFasta } from '../../src/input/inspect.ts'
import { chunkSequence, sixFrames } from '../../src/input/six-frame.ts'

const root = await mkdtemp(join(tmpdir(), 'fixtures-inspect-'))
afterAll(() => rm(root, { recursive: true, force: true }))
let files = 0

const sequences = fc.array(
  fc.string({ unit: fc.constantFrom('A', 'C', 'G', 'T', 'T', 'A', 'N', 'R', 'g', 'c'), minLength: 1, maxLength: 900 }),
  { minLength: 1, maxLength: 12 },
)

/** Stop-free frames by translating every chunk (six-frame.ts, the contract's reference). */
const translated = (sequence: string, chunkLength: number) =>
  chunkSequence({ id: 'x', sequence }, chunkLength)
    .flatMap((chunk) => sixFrames(chunk))
    .filter((frame) => frame.stopFree).length

describe('inspectFasta', () => {
  test('GC, ambiguous bases and stop-free frames (one pass) agree with counting and translating each record', async () => {
    await fc.assert(
      fc.asyncProperty(sequences, async (raw) => {
        // The parser uppercases: g and c count as G and C.
        const records = raw.map((s) => s.toUpperCase())
        const path = join(root, `r${files++}.fa`)
        await writeFile(path, raw.map((s, i) => `>r${i}\n${s.match(/.{1,60}/g)!.join('\n')}\n`).join(''))
        const inspection = await inspectFasta(path)
        const bases = records.join('')
        expect(inspection.records).toBe(records.length)
        expect(inspection.bases).toBe(bases.length)
        expect(inspection.gc).toBeCloseTo(bases.replace(/[^GC]/g, '').length / bases.length, 12)
        expect(inspection.ambiguousBases).toBe(bases.replace(/[ACGT]/g, '').length)
        for (const stats of inspection.stopFreeFrames)
          expect(stats.stopFreeFrames).toBe(records.reduce((sum, s) => sum + translated(s, stats.chunkLength), 0))
      }),
      { numRuns: 40 },
    )
  })
})
