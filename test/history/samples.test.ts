import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { decodeSamples, encodeSamples } from '../../src/history/samples.ts'

describe("a point's runs as a BLOB", () => {
  test('every list of doubles reads back bit for bit; none and empty are NULL', () => {
    fc.assert(
      fc.property(fc.array(fc.double(), { minLength: 1, maxLength: 50 }), (runs) => {
        expect(decodeSamples(encodeSamples(runs))).toEqual(runs)
        expect(encodeSamples(runs)!.byteLength).toBe(8 * runs.length)
      }),
    )
    expect(encodeSamples(null)).toBeNull()
    expect(encodeSamples([])).toBeNull()
    expect(decodeSamples(null)).toBeNull()
  })

  test('a BLOB that is not whole float64s is refused with its length (a damaged file)', () => {
    expect(() => decodeSamples(new Uint8Array(12))).toThrow('a samples BLOB of 12 bytes is not whole float64s')
  })

  test('a view into a larger buffer reads its own bytes only', () => {
    const blob = encodeSamples([1.5, -2, 3e300])!
    const padded = new Uint8Array(blob.byteLength + 16)
    padded.set(blob, 8)
    expect(decodeSamples(padded.subarray(8, 8 + blob.byteLength))).toEqual([1.5, -2, 3e300])
  })
})
