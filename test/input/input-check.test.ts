// The input as validation reads it (src/input/input-check.ts): records, bases and GPU work, the same whether a
// record is held whole or, past the hold cap, measured in a second pass over its file.
import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { readInput } from '../../src/input/input-check.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('input-check-')
let made = 0

const sequence = fc.string({ unit: fc.constantFrom(...'ACGTTAAGNacgt'), minLength: 1, maxLength: 2500 })
const part = fc.array(sequence, { minLength: 1, maxLength: 5 })

describe('readInput', () => {
  test('a directory of parts gives the same records, bases and work whatever the hold cap (held or streamed)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(part, { minLength: 1, maxLength: 3 }),
        fc.integer({ min: 1, max: 3000 }),
        fc.constantFrom(300, 500),
        async (parts, holdBases, chunkLength) => {
          const dir = join(root, `in${made++}`)
          await mkdir(dir)
          let n = 0
          for (const [i, records] of parts.entries()) {
            const text = records.map((s) => `>r${n++} x\n${s.match(/.{1,70}/g)!.join('\n')}\n`).join('')
            // Gzip for odd parts: the second pass reads what the first read, compressed or not.
            if (i % 2 === 1) await writeFile(join(dir, `p${i}.fa.gz`), gzipSync(text))
            else await writeFile(join(dir, `p${i}.fa`), text)
          }
          const whole = await readInput(dir, chunkLength, { holdBases: 1 << 20 })
          const capped = await readInput(dir, chunkLength, { holdBases })
          expect(capped).toEqual(whole)
          expect(whole.bases).toBe(parts.flat().reduce((sum, s) => sum + s.length, 0))
        },
      ),
      { numRuns: 40 },
    )
  })
})
