import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { AMINO_ACIDS_TABLE_1, CODONS } from '../../src/input/genetic-code.ts'
import {
  chunkSequence,
  countStopFreeFrames,
  keptFrameIds,
  sixFrames,
  translateFrame,
} from '../../src/input/six-frame.ts'

/** A direct NCBI table 1 lookup written independently of the module: codon text -> amino acid. */
const TABLE = new Map(CODONS.map((codon, i) => [codon, AMINO_ACIDS_TABLE_1[i]!]))
const COMPLEMENT: Record<string, string> = { A: 'T', T: 'A', C: 'G', G: 'C' }
const directTranslate = (s: string) => {
  let out = ''
  for (let i = 0; i + 3 <= s.length; i += 3) out += TABLE.get(s.slice(i, i + 3)) ?? 'X'
  return out
}
const directRevComp = (s: string) =>
  [...s]
    .reverse()
    .map((b) => COMPLEMENT[b] ?? 'N')
    .join('')

/** Sequences over ACGT plus a few other letters, stop-rich so both outcomes occur. */
const bases = (max: number) =>
  fc.string({ unit: fc.constantFrom('A', 'C', 'G', 'T', 'T', 'A', 'N', 'R'), maxLength: max })

describe('chunkSequence', () => {
  test('a sequence no longer than L is one chunk, the whole sequence', () => {
    expect(chunkSequence({ id: 's', sequence: 'ACGTA' }, 500)).toEqual([
      { id: 's_chunk_1', index: 0, start: 0, sequence: 'ACGTA' },
    ])
  })

  test('longer sequences give ceil(n/L) chunks of exactly L, first at 0, last ending at n, starts rounded half up', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3000 }), fc.integer({ min: 1, max: 600 }), (n, L) => {
        const chunks = chunkSequence({ id: 'r', sequence: 'A'.repeat(n) }, L)
        const k = Math.ceil(n / L)
        expect(chunks).toHaveLength(k)
        if (k === 1) return
        chunks.forEach((chunk, i) => {
          expect(chunk.id).toBe(`r_chunk_${i + 1}`)
          expect(chunk.sequence).toHaveLength(L)
          expect(chunk.start).toBe(Math.floor((i * (n - L)) / (k - 1) + 0.5))
        })
        expect(chunks[0]!.start).toBe(0)
        expect(chunks.at(-1)!.start + L).toBe(n)
      }),
    )
  })

  test('an exact half rounds up: n=7, L=3 gives starts 0, 2, 4', () => {
    expect(chunkSequence({ id: 'h', sequence: 'ACGTACG' }, 3).map((c) => c.start)).toEqual([0, 2, 4])
  })
})

describe('translateFrame and sixFrames', () => {
  test('forward frames agree with a direct codon-table translation', () => {
    fc.assert(
      fc.property(bases(200), fc.integer({ min: 0, max: 2 }), (s, offset) => {
        expect(translateFrame(s, offset)).toBe(directTranslate(s.slice(offset)))
      }),
    )
  })

  test('reverse frames translate the reverse complement (A<->T, C<->G, others -> N)', () => {
    fc.assert(
      fc.property(bases(200), (s) => {
        const frames = sixFrames(s)
        for (const offset of [0, 1, 2]) {
          expect(frames[3 + offset]!.frame).toBe(`R${offset + 1}`)
          expect(frames[3 + offset]!.protein).toBe(directTranslate(directRevComp(s).slice(offset)))
          expect(frames[3 + offset]!.nucleotides).toBe(
            directRevComp(s).slice(offset, offset + 3 * frames[3 + offset]!.protein.length),
          )
        }
      }),
    )
  })

  test('stops become *, codons with a non-ACGT base become X', () => {
    expect(translateFrame('ATGTAANNNTGAACG', 0)).toBe('M*X*T')
  })

  test('keptFrameIds names stop-free frames {id}_chunk_{i}{frame}', () => {
    // ATGAAA... has no stop in F1; its reverse complement TTTCAT is stop-free in R1 too.
    const ids = keptFrameIds({ id: 'seq7', sequence: 'ATGAAACCC' }, 500)
    expect(ids).toContain('seq7_chunk_1F1')
    expect(ids.every((id) => /^seq7_chunk_1[FR][123]$/.test(id))).toBe(true)
  })
})

describe('countStopFreeFrames', () => {
  test('equals the number of stop-free frames found by translating every chunk', () => {
    fc.assert(
      fc.property(bases(1500), fc.constantFrom(3, 7, 50, 300, 500), (s, L) => {
        const reference = chunkSequence({ id: 'x', sequence: s }, L)
          .flatMap((c) => sixFrames(c))
          .filter((f) => f.stopFree).length
        expect(countStopFreeFrames(s, L)).toBe(reference)
        expect(keptFrameIds({ id: 'x', sequence: s }, L)).toHaveLength(reference)
      }),
      { numRuns: 300 },
    )
  })

  test('accepts bytes as well as text', () => {
    const s = 'ATGAAACCCGGGTTTAAACCC'
    expect(countStopFreeFrames(Buffer.from(s), 10)).toBe(countStopFreeFrames(s, 10))
  })
})
