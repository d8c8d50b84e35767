import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { RecordWork } from '../../src/input/record-work.ts'
import { chunkSequence, keptFrames } from '../../src/input/six-frame.ts'

// Stop-rich and stop-poor bases alike (T and A make stops likely), plus unknown bases.
const sequences = fc.string({ unit: fc.constantFrom('A', 'C', 'G', 'T', 'T', 'A', 'N'), maxLength: 1_500 })
const chunkLengths = fc.integer({ min: 1, max: 600 })

/** The reference: every kept frame of the contract, counted as its chunk's length. */
function referenceWork(sequence: string, chunkLength: number): number {
  const record = { id: 'r', sequence }
  const spanOf = new Map(chunkSequence(record, chunkLength).map((c) => [c.id, c.sequence.length]))
  return keptFrames(record, chunkLength).reduce((sum, frame) => sum + spanOf.get(frame.chunkId)!, 0)
}

describe('RecordWork', () => {
  test('equals the bases of every kept frame by the readable contract (six-frame.ts)', () => {
    const work = new RecordWork()
    fc.assert(
      fc.property(sequences, chunkLengths, (sequence, chunkLength) => {
        const bytes = Buffer.from(sequence, 'latin1')
        expect(work.bases(bytes, 0, bytes.length, chunkLength)).toBe(referenceWork(sequence, chunkLength))
      }),
    )
  })

  test('reads only its slice of a larger buffer', () => {
    const work = new RecordWork()
    fc.assert(
      fc.property(sequences, sequences, sequences, chunkLengths, (before, sequence, after, chunkLength) => {
        const bytes = Buffer.from(before + sequence + after, 'latin1')
        const start = before.length
        expect(work.bases(bytes, start, start + sequence.length, chunkLength)).toBe(
          referenceWork(sequence, chunkLength),
        )
      }),
    )
  })

  test('a stop codon in every frame is no work; a stop-free record is six frames of its length', () => {
    const work = new RecordWork()
    const stops = Buffer.from('TAATAGTGATTATCTACTA'.repeat(4), 'latin1')
    expect(work.bases(stops, 0, stops.length, 500)).toBe(0)
    const free = Buffer.from('GGC'.repeat(30), 'latin1')
    expect(work.bases(free, 0, free.length, 500)).toBe(6 * free.length)
  })
})
