import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { contentProblem, sniffContent } from '../../src/input/content-sniff.ts'

const bytes = (...values: number[]) => Uint8Array.from(values)

describe('sniffContent', () => {
  test.for([
    ['gzip', bytes(0x1f, 0x8b, 8, 0)],
    ['bzip2', Buffer.from('BZh91AY')],
    ['xz', bytes(0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00)],
    ['zstd', bytes(0x28, 0xb5, 0x2f, 0xfd, 0, 0)],
    ['zip', bytes(0x50, 0x4b, 0x03, 0x04)],
    ['utf-8-bom', bytes(0xef, 0xbb, 0xbf, 0x3e)],
    ['utf-16le', Buffer.from('\uFEFF>a', 'utf16le')],
    ['utf-16be', bytes(0xfe, 0xff, 0, 0x3e)],
    ['utf-32le', bytes(0xff, 0xfe, 0, 0, 0x3e, 0)],
    ['utf-32be', bytes(0, 0, 0xfe, 0xff)],
    ['utf-16le', Buffer.from('>a b', 'utf16le')],
    ['utf-16be', Buffer.from('>a', 'utf16le').swap16()],
    ['text', Buffer.from('>a\nACGT\n')],
    ['text', bytes()],
  ] as const)('%s', ([kind, head]) => {
    expect(sniffContent(head)).toBe(kind)
  })

  test('ASCII text (what FASTA and JSON are) is always text, and never has a problem', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)) }), (s) => {
        const kind = sniffContent(Buffer.from(s, 'latin1'))
        expect(kind === 'text' || kind === 'bzip2' || kind === 'zip').toBe(true)
        if (kind === 'text') expect(contentProblem(kind, 'f', false)).toBeUndefined()
      }),
    )
  })
})

describe('contentProblem', () => {
  test('names the encoding and the command that converts it', () => {
    expect(contentProblem('utf-16le', "/d/my file's.fa", false)).toBe(
      "the text is UTF-16LE, not ASCII or UTF-8; convert it, e.g. iconv -f UTF-16 -t UTF-8 '/d/my file'\\''s.fa' > converted-copy",
    )
  })

  test('a UTF-8 byte-order mark is a problem for FASTA, none where it is stripped (JSON)', () => {
    expect(contentProblem('utf-8-bom', 'a.fa', false)).toMatch(
      /^starts with a UTF-8 byte-order mark .*; remove it, e.g. sed/,
    )
    expect(contentProblem('utf-8-bom', 'a.json', true)).toBeUndefined()
  })

  test('another compression says only gzip is read', () => {
    expect(contentProblem('xz', 'a.fa.xz', false)).toBe(
      'holds xz-compressed data, and only gzip is read; decompress it, or recompress it with gzip',
    )
    expect(contentProblem('gzip', 'a.fa', false)).toBeUndefined()
  })
})
