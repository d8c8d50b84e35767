import { mkdir, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { FastaFormatError } from '../../src/input/fasta-errors.ts'
import { readFastaParts } from '../../src/input/fasta-parts.ts'
import { readFasta } from '../../src/input/fasta-reader.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('fasta-parts-')
let made = 0
/** Writes each part's text to its own file; returns the paths. */
async function parts(...texts: string[]): Promise<string[]> {
  const dir = join(root, `p${made++}`)
  await mkdir(dir)
  return Promise.all(
    texts.map(async (text, i) => {
      const file = join(dir, `part-${i}.fa`)
      await writeFile(file, text)
      return file
    }),
  )
}

describe('readFastaParts', () => {
  test('reads the parts in order as one input, telling which part each record came from', async () => {
    const files = await parts('>a\nACGT\n>b\nGG\n', '>c\nTT\n')
    const seen: string[] = []
    expect(await readFastaParts(files, (r, f) => seen.push(`${r.id}@${f}`))).toBe(3)
    expect(seen).toEqual(['a@0', 'b@0', 'c@1'])
  })

  test('an ID in two parts is refused naming both files, the line and the fix', async () => {
    const files = await parts('>a\nACGT\n>dup x\nGG\n', '>c\nTT\n>dup\nAC\n')
    const error = await readFastaParts(files, () => {}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FastaFormatError)
    expect((error as Error).message).toBe(
      `${files[1]}:3:2: duplicate record ID 'dup', already in ${files[0]}: the parts of one input are read as one FASTA; rename one of the two records`,
    )
  })

  test('a repeat within one part keeps the one-file message', async () => {
    const files = await parts('>a\nAC\n', '>b\nAC\n>b\nAC\n')
    await expect(readFastaParts(files, () => {})).rejects.toThrow(`${files[1]}:3:2: duplicate record ID 'b'`)
  })

  test('whatever the split into parts, a repeated ID is found iff there is one, and names the earlier part', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 4 }),
        async (ids, count) => {
          const chunks = Array.from({ length: count }, (_, p) => ids.filter((_, i) => i % count === p)).filter(
            (c) => c.length > 0,
          )
          const files = await parts(...chunks.map((c) => c.map((id) => `>${id}\nA\n`).join('')))
          const result = await readFastaParts(files, () => {}).then(
            () => null,
            (e: Error) => e.message,
          )
          // The first repeat in reading order, and the part that held its ID first.
          const firstPart = new Map<string, number>()
          let repeat: { part: number; earlier: number } | undefined
          for (const [part, chunk] of chunks.entries())
            for (const id of chunk) {
              if (firstPart.has(id) && !repeat) repeat = { part, earlier: firstPart.get(id)! }
              if (!firstPart.has(id)) firstPart.set(id, part)
            }
          if (repeat === undefined) expect(result).toBeNull()
          else if (repeat.part === repeat.earlier) expect(result).toMatch(/duplicate record ID '\w'$/)
          else expect(result).toContain(`already in ${files[repeat.earlier]}:`)
        },
      ),
      { numRuns: 30 },
    )
  })
})

describe('readFasta refuses what is no ASCII FASTA, naming the encoding and the fix', () => {
  const text = '>a\nACGT\n'
  test.for([
    [
      'UTF-16 with a byte-order mark',
      Buffer.from(`\uFEFF${text}`, 'utf16le'),
      /: the text is UTF-16LE, not ASCII or UTF-8; convert it, e\.g\. iconv -f UTF-16 -t UTF-8 /,
    ],
    ['UTF-16 without one', Buffer.from(text, 'utf16le'), /: the text is UTF-16LE, not ASCII or UTF-8; convert it/],
    [
      'UTF-8 with a byte-order mark',
      Buffer.from(`\uFEFF${text}`),
      /: starts with a UTF-8 byte-order mark \(EF BB BF\).*; remove it/,
    ],
    ['gzip of UTF-16', gzipSync(Buffer.from(text, 'utf16le')), /: decompressed, the text is UTF-16LE/],
    ['bzip2', Buffer.from('BZh91AY&SY'), /: holds bzip2-compressed data, and only gzip is read; decompress it/],
  ] as const)('%s', async ([, bytes, message]) => {
    const file = join(root, `enc-${made++}.fa`)
    await writeFile(file, bytes)
    const error = await readFasta(file, () => {}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FastaFormatError)
    expect((error as Error).message.startsWith(`${file}: `)).toBe(true)
    expect((error as Error).message).toMatch(message)
  })
})
