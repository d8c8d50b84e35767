import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { chunkSequence, sixFrames } from '../../src/input/six-frame.ts'
import { StopFreeScanner } from '../../src/input/stop-scan.ts'

/** Stop-rich sequences with unknown letters, lowercase included (the contract makes lowercase an unknown base). */
const sequences = fc.string({
  unit: fc.constantFrom('A', 'C', 'G', 'T', 'T', 'A', 'N', 'R', 'a', 't'),
  maxLength: 1200,
})
const lengths = fc.uniqueArray(fc.integer({ min: 1, max: 600 }), { minLength: 1, maxLength: 4 })

/** Stop-free frames by translating every chunk (six-frame.ts, the contract's reference). */
const translated = (sequence: string, chunkLength: number) =>
  chunkSequence({ id: 'x', sequence }, chunkLength)
    .flatMap((chunk) => sixFrames(chunk))
    .filter((frame) => frame.stopFree).length

describe('StopFreeScanner', () => {
  test('one scan at several chunk lengths gives, for each, the count found by translating', () => {
    const scanner = new StopFreeScanner()
    fc.assert(
      fc.property(sequences, lengths, (sequence, chunkLengths) => {
        scanner.scan(Buffer.from(sequence, 'latin1'), 0, sequence.length, chunkLengths)
        for (const chunkLength of chunkLengths)
          expect(scanner.countScanned(chunkLength)).toBe(translated(sequence, chunkLength))
      }),
      { numRuns: 200 },
    )
  })

  test('counts G/C (uppercase only) and bases other than uppercase ACGT in the same pass', () => {
    const scanner = new StopFreeScanner()
    fc.assert(
      fc.property(sequences, fc.nat({ max: 5 }), (sequence, pad) => {
        // The record sits inside a larger buffer: only [start, end) counts.
        const bytes = Buffer.from(`${'G'.repeat(pad)}${sequence}${'C'.repeat(pad)}`, 'latin1')
        scanner.scan(bytes, pad, pad + sequence.length, [300])
        expect(scanner.gcBases).toBe(sequence.replace(/[^GC]/g, '').length)
        expect(scanner.unknownBases).toBe(sequence.replace(/[ACGT]/g, '').length)
      }),
    )
  })

  test('a sequence fed in pieces (too long to hold) counts what one scan of it counts', () => {
    const whole = new StopFreeScanner()
    const pieces = new StopFreeScanner()
    fc.assert(
      fc.property(sequences, lengths, fc.array(fc.nat({ max: 1200 })), (sequence, chunkLengths, cuts) => {
        const bytes = Buffer.from(sequence, 'latin1')
        whole.scan(bytes, 0, bytes.length, chunkLengths)
        pieces.begin(bytes.length, chunkLengths)
        const bounds = [...new Set([0, ...cuts.map((c) => c % (bytes.length + 1)), bytes.length])].sort((a, b) => a - b)
        // Each piece in a buffer of its own, at an offset: as the parser hands them over.
        for (const [i, from] of bounds.slice(0, -1).entries()) {
          const piece = Buffer.concat([Buffer.from('GGG'), bytes.subarray(from, bounds[i + 1])])
          pieces.feed(piece, 3, piece.length)
        }
        for (const chunkLength of chunkLengths)
          expect(pieces.countScanned(chunkLength)).toBe(whole.countScanned(chunkLength))
        expect([pieces.gcBases, pieces.unknownBases]).toEqual([whole.gcBases, whole.unknownBases])
      }),
      { numRuns: 300 },
    )
  })

  test('feeding more bases than begun is refused', () => {
    const scanner = new StopFreeScanner()
    scanner.begin(4, [3])
    scanner.feed(Buffer.from('ACG'), 0, 3)
    expect(() => scanner.feed(Buffer.from('TA'), 0, 2)).toThrow('StopFreeScanner: fed 5 bases of a 4-base sequence')
  })

  test('chunks too short for a codon keep all six (empty) frames', () => {
    const scanner = new StopFreeScanner()
    scanner.scan(Buffer.from('TAATAG'), 0, 6, [1, 2])
    expect(scanner.countScanned(1)).toBe(36)
    expect(scanner.countScanned(2)).toBe(18)
  })

  test('an empty sequence has no chunks, and a second scan forgets the first', () => {
    const scanner = new StopFreeScanner()
    scanner.scan(Buffer.from('ATGAAA'), 0, 6, [3])
    scanner.scan(new Uint8Array(0), 0, 0, [3])
    expect(scanner.countScanned(3)).toBe(0)
    expect(scanner.gcBases).toBe(0)
  })

  test('rejects a chunk length that is not a positive integer, and one the last scan did not count', () => {
    const scanner = new StopFreeScanner()
    expect(() => scanner.scan(Buffer.from('ACGT'), 0, 4, [300, 0])).toThrow(
      /chunkLength must be a positive integer, got 0/,
    )
    scanner.scan(Buffer.from('ACGT'), 0, 4, [300])
    expect(() => scanner.countScanned(500)).toThrow(/did not count chunk length 500/)
  })
})
