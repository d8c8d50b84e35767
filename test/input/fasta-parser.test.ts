import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import fc from 'fast-check'
import { afterAll, describe, expect, test } from 'vitest'
import { FastaFormatError, FastaReadError } from '../../src/input/fasta-errors.ts'
import { FastaParser } from '../../src/input/fasta-parser.ts'
import { readFasta } from '../../src/input/fasta-reader.ts'

const root = await mkdtemp(join(tmpdir(), 'fixtures-parser-'))
afterAll(() => rm(root, { recursive: true, force: true }))

/** Parses text fed in chunks of `chunkSize` bytes; returns records or the error. */
function parse(text: string, chunkSize = 1 << 20) {
  const out: { id: string; line: number; sequence: string }[] = []
  const parser = new FastaParser('in.fa', (r) =>
    out.push({ id: r.id, line: r.line, sequence: Buffer.from(r.bases.subarray(0, r.length)).toString('latin1') }),
  )
  const bytes = Buffer.from(text, 'latin1')
  try {
    for (let i = 0; i < bytes.length; i += chunkSize) parser.push(bytes.subarray(i, i + chunkSize))
    parser.end()
  } catch (error) {
    return { error: error as FastaFormatError, records: out }
  }
  return { records: out }
}

const recordArb = fc.record({
  sequence: fc.string({ unit: fc.constantFrom(...'ACGTNacgtRY'), minLength: 1, maxLength: 150 }),
  width: fc.integer({ min: 1, max: 80 }),
})
const fasta = (recs: { sequence: string; width: number }[]) =>
  recs
    .map((r, i) => `>r${i} some description\n${r.sequence.match(new RegExp(`.{1,${r.width}}`, 'g'))!.join('\n')}\n`)
    .join('')

describe('FastaParser', () => {
  test('round-trips records whatever the line width and chunk boundaries; bases come out uppercase', () => {
    fc.assert(
      fc.property(
        fc.array(recordArb, { minLength: 1, maxLength: 8 }),
        fc.integer({ min: 1, max: 64 }),
        (recs, chunk) => {
          const { records, error } = parse(fasta(recs), chunk)
          expect(error).toBeUndefined()
          expect(records.map((r) => r.sequence)).toEqual(recs.map((r) => r.sequence.toUpperCase()))
          expect(records.map((r) => r.id)).toEqual(recs.map((_, i) => `r${i}`))
        },
      ),
    )
  })

  test('names the line and column of a non-nucleotide character, whatever the chunking', () => {
    fc.assert(
      fc.property(
        fc.array(recordArb, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.constantFrom('X', '-', '*', '1', 'E'),
        fc.integer({ min: 1, max: 50 }),
        (recs, at, bad, chunk) => {
          const lines = fasta(recs).split('\n')
          const seqLines = lines.flatMap((l, i) => (l.startsWith('>') || l === '' ? [] : [i]))
          const lineIndex = seqLines[at % seqLines.length]!
          const column = (at % lines[lineIndex]!.length) + 1
          lines[lineIndex] = lines[lineIndex]!.slice(0, column - 1) + bad + lines[lineIndex]!.slice(column)
          const { error } = parse(lines.join('\n'), chunk)
          expect(error).toBeInstanceOf(FastaFormatError)
          expect(error!.line).toBe(lineIndex + 1)
          expect(error!.column).toBe(column)
          expect(error!.message).toContain(`'${bad}'`)
        },
      ),
    )
  })

  test('an empty record is an error at its header line', () => {
    const { error } = parse('>a\nACGT\n>b\n\n>c\nAC\n')
    expect(error?.message).toMatch(/^in\.fa:3: record 'b' has no sequence/)
  })

  test('a duplicate ID is an error at the second header', () => {
    const { error } = parse('>a x\nACGT\n>b\nAC\n>a y\nGG\n')
    expect(error?.line).toBe(5)
    expect(error?.message).toMatch(/duplicate record ID 'a'/)
  })

  test('a file cut mid-line (no final newline) is reported as truncated', () => {
    expect(parse('>a\nACGT\n>b\nACG').error?.message).toMatch(/in\.fa:4: file ends without a final newline: truncated/)
  })

  test('sequence before the first header, a header without ID, and an empty file are errors', () => {
    expect(parse('ACGT\n>a\nAC\n').error?.line).toBe(1)
    expect(parse('>a\nAC\n> desc\nAC\n').error?.message).toMatch(/in\.fa:3:2: header line has no ID/)
    expect(parse('').error?.message).toMatch(/no FASTA records/)
  })

  test('a line longer than the record buffer grows it (200 kb on one line, fed in odd chunks)', () => {
    const sequence = 'ACGTN'.repeat(40_000)
    const { records, error } = parse(`>long\n${sequence}\n>b\nAC\n`, 65_537)
    expect(error).toBeUndefined()
    expect(records.map((r) => r.sequence)).toEqual([sequence, 'AC'])
  })

  test('held up to holdBases, streamed in pieces: the same bases whatever the chunking; a long record is not held', () => {
    fc.assert(
      fc.property(
        fc.array(recordArb, { minLength: 1, maxLength: 6 }),
        fc.integer({ min: 1, max: 97 }),
        fc.integer({ min: 1, max: 120 }),
        (recs, chunkSize, holdBases) => {
          const bytes = Buffer.from(fasta(recs), 'latin1')
          const streamed = recs.map(() => [] as string[])
          const held: { length: number; held: boolean; sequence: string }[] = []
          const keep = (r: { length: number; held: boolean; bases: Uint8Array }) =>
            held.push({ length: r.length, held: r.held, sequence: Buffer.from(r.bases).toString('latin1') })
          const holding = new FastaParser('in.fa', keep, { holdBases })
          const streaming = new FastaParser('in.fa', (r) => expect([r.held, r.bases.length]).toEqual([false, 0]), {
            onBases: (piece, start, end, record) =>
              streamed[record]!.push(Buffer.from(piece.subarray(start, end)).toString('latin1')),
          })
          for (let i = 0; i < bytes.length; i += chunkSize) {
            holding.push(bytes.subarray(i, i + chunkSize))
            streaming.push(bytes.subarray(i, i + chunkSize))
          }
          holding.end()
          streaming.end()
          recs.forEach((r, i) => {
            const upper = r.sequence.toUpperCase()
            expect(streamed[i]!.join('')).toBe(upper)
            expect(held[i]).toEqual(
              upper.length <= holdBases
                ? { length: upper.length, held: true, sequence: upper }
                : { length: upper.length, held: false, sequence: '' },
            )
          })
        },
      ),
      { numRuns: 200 },
    )
  })

  test('a record longer than maxRecordBases is refused at its header with its length, streamed or held', () => {
    const text = `>short\nACGT\n>long a record too long\n${'ACGTACGTAC\n'.repeat(3)}ac\n`
    for (const options of [{ maxRecordBases: 31 }, { maxRecordBases: 31, onBases: () => {} }]) {
      const parser = new FastaParser('in.fa', () => {}, options)
      parser.push(Buffer.from(text))
      expect(() => parser.end()).toThrow(
        "in.fa:3: record 'long' has 32 bases, more than the 31 one record may have (longer than any chromosome of the reference assemblies): split it into records of at most that length",
      )
    }
    const atLimit = new FastaParser('in.fa', () => {}, { maxRecordBases: 32 })
    atLimit.push(Buffer.from(text))
    expect(() => atLimit.end()).not.toThrow()
  })

  test('spaces and tabs inside sequence lines are skipped; lowercase inside an uppercase run is uppercased', () => {
    expect(parse('>a\nAC GT\tAA\nacGt\n').records[0]?.sequence).toBe('ACGTAAACGT')
  })

  test('the column of an invalid character counts the skipped whitespace before it', () => {
    const { error } = parse('>a\nAC  G!T\n')
    expect([error?.line, error?.column]).toEqual([2, 6])
  })

  test('CRLF line ends and blank lines are accepted', () => {
    expect(parse('>a\r\nAC\r\nGT\r\n\n>b\r\nTT\r\n').records.map((r) => [r.id, r.sequence])).toEqual([
      ['a', 'ACGT'],
      ['b', 'TT'],
    ])
  })
})

describe('readFasta', () => {
  const text = '>a\nACGT\n>b\nGGCC\n'

  test('reads gzip files the same as plain ones (by content, not name)', async () => {
    await writeFile(join(root, 'p.fa'), text)
    await writeFile(join(root, 'z.fa.gz'), gzipSync(text))
    await writeFile(join(root, 'z-no-suffix.fa'), gzipSync(text))
    for (const name of ['p.fa', 'z.fa.gz', 'z-no-suffix.fa']) {
      const ids: string[] = []
      expect(await readFasta(join(root, name), (r) => ids.push(r.id))).toBe(2)
      expect(ids).toEqual(['a', 'b'])
    }
  })

  test('a truncated gzip file is an error naming the file', async () => {
    const gz = gzipSync(Array.from({ length: 1000 }, (_, i) => `>r${i}\nACGT\n`).join(''))
    const path = join(root, 'cut.fa.gz')
    await writeFile(path, gz.subarray(0, gz.length - 20))
    await expect(readFasta(path, () => {})).rejects.toThrow(new RegExp(`${path}: gzip stream is truncated or corrupt`))
  })

  test('a plain file of several read chunks (> 1 MiB) gives the records parsing it in memory gives', async () => {
    const text = Array.from(
      { length: 3000 },
      (_, i) =>
        `>r${i} x\n${'ACGTTGCA'
          .repeat(60 + (i % 7))
          .match(/.{1,61}/g)!
          .join('\n')}\n`,
    ).join('')
    const path = join(root, 'big.fa')
    await writeFile(path, text)
    const read: string[] = []
    const count = await readFasta(path, (r) => read.push(`${r.id}:${Buffer.from(r.bases).toString('latin1')}`))
    expect(Buffer.byteLength(text)).toBeGreaterThan(1 << 20)
    expect(count).toBe(3000)
    expect(read).toEqual(parse(text).records.map((r) => `${r.id}:${r.sequence}`))
  })

  test('an error thrown by the record callback ends the read as a FastaReadError naming the file, with the cause', async () => {
    const path = join(root, 'cb.fa')
    await writeFile(path, '>a\nACGT\n')
    const cause = new Error('consumer full')
    const error = await readFasta(path, () => {
      throw cause
    }).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FastaReadError)
    expect((error as Error).message).toBe(`${path}: read failed: consumer full`)
    expect((error as Error).cause).toBe(cause)
  })

  test('a missing file is a FastaReadError naming it', async () => {
    const path = join(root, 'missing.fa')
    const error = await readFasta(path, () => {}).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(FastaReadError)
    expect((error as Error).message).toContain(path)
  })
})
