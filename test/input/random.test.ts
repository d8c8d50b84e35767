import fc from 'fast-check'
import seedrandom from 'seedrandom'
import { describe, expect, test } from 'vitest'
import { createFastRandom, createRandom } from '../../src/input/random.ts'

const draws = (random: { uint32(): number }, n: number) => Array.from({ length: n }, () => random.uint32())

describe('createRandom', () => {
  test('the same seed gives the same stream, numbers and their text alike', () => {
    fc.assert(
      fc.property(fc.nat(), (seed) => {
        expect(draws(createRandom(seed), 8)).toEqual(draws(createRandom(String(seed)), 8))
      }),
    )
  })

  test('different seeds give different streams', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        if (a !== b) expect(draws(createRandom(a), 4)).not.toEqual(draws(createRandom(b), 4))
      }),
    )
  })

  test('next() is in [0, 1) and intBelow(n) in [0, n)', () => {
    fc.assert(
      fc.property(fc.nat(), fc.integer({ min: 1, max: 2 ** 40 }), (seed, n) => {
        const random = createRandom(seed)
        for (let i = 0; i < 20; i++) {
          const x = random.next()
          const k = random.intBelow(n)
          expect(x >= 0 && x < 1).toBe(true)
          expect(Number.isInteger(k) && k >= 0 && k < n).toBe(true)
        }
      }),
    )
  })

  test('rejects a non-finite seed and a bad bound', () => {
    expect(() => createRandom(Number.NaN)).toThrow(/finite/)
    expect(() => createRandom(1).intBelow(0)).toThrow(/positive/)
  })

  test('normal() has mean ~0 and variance ~1', () => {
    const random = createRandom('normal')
    const xs = Array.from({ length: 20_000 }, () => random.normal())
    const mean = xs.reduce((a, b) => a + b, 0) / xs.length
    const variance = xs.reduce((a, b) => a + (b - mean) ** 2, 0) / xs.length
    expect(Math.abs(mean)).toBeLessThan(0.05)
    expect(Math.abs(variance - 1)).toBeLessThan(0.05)
  })
})

describe('seeds that are repetitions of one another', () => {
  // ARC4 keys cyclically: seedrandom gave seeds 2 and 22 one stream (found by the property below, counterexample [2, 22]).
  test('a text and its repetitions give different streams; a seed that is no repetition keeps its stream', () => {
    fc.assert(
      fc.property(fc.string({ minLength: 1, maxLength: 20 }), fc.integer({ min: 2, max: 12 }), (root, times) => {
        fc.pre(!root.includes('\u0000'))
        expect(draws(createRandom(root), 4)).not.toEqual(draws(createRandom(root.repeat(times)), 4))
        expect(draws(createFastRandom(root), 4)).not.toEqual(draws(createFastRandom(root.repeat(times)), 4))
      }),
    )
    expect(draws(createRandom(2), 2)).not.toEqual(draws(createRandom(22), 2))
    // The stream of a seed that is no repetition is seedrandom's own, as it always was.
    const plain = seedrandom('42')
    expect(draws(createRandom(42), 4)).toEqual(Array.from({ length: 4 }, () => plain.int32() >>> 0))
  })
})

describe('createFastRandom', () => {
  test('is determined by the seed and differs between seeds', () => {
    fc.assert(
      fc.property(fc.nat(), fc.nat(), (a, b) => {
        expect(draws(createFastRandom(a), 16)).toEqual(draws(createFastRandom(a), 16))
        if (a !== b) expect(draws(createFastRandom(a), 4)).not.toEqual(draws(createFastRandom(b), 4))
      }),
    )
  })

  test('its 16-bit halves are close to uniform (chi-square over 256 cells)', () => {
    const random = createFastRandom(7)
    const cells = new Array<number>(256).fill(0)
    const n = 256_000
    for (let i = 0; i < n / 2; i++) {
      const x = random.uint32()
      cells[(x & 0xffff) >> 8]!++
      cells[x >>> 24]!++
    }
    const expected = n / 256
    const chi2 = cells.reduce((sum, c) => sum + (c - expected) ** 2 / expected, 0)
    // 255 degrees of freedom: the 99.9th percentile is about 330.
    expect(chi2).toBeLessThan(330)
  })
})
