import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { ksDistance } from '../../src/input/ks.ts'
import { createRandom } from '../../src/input/random.ts'
import { selectStratified } from '../../src/input/stratify.ts'

describe('selectStratified', () => {
  test('selects exactly the number asked for, and the same ones for the same seed', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 1, max: 3000 }), { minLength: 1, maxLength: 300 }),
        fc.nat(),
        fc.integer({ min: 1, max: 40 }),
        (lengths, seed, strata) => {
          const wanted = 1 + (seed % lengths.length)
          const a = selectStratified(lengths, wanted, strata, createRandom(seed))
          expect(a.reduce((s, x) => s + x, 0)).toBe(wanted)
          expect(selectStratified(lengths, wanted, strata, createRandom(seed))).toEqual(a)
        },
      ),
    )
  })

  test('the subsample length distribution matches the source (KS < 0.03 for 1,000 of 50,000)', () => {
    const random = createRandom('source')
    const lengths = Array.from({ length: 50_000 }, () => Math.round(Math.exp(6.7 + 0.6 * random.normal())))
    const picked = selectStratified(lengths, 1000, 20, createRandom(1))
    const sub = lengths.filter((_, i) => picked[i] === 1).sort((a, b) => a - b)
    expect(
      ksDistance(
        [...lengths].sort((a, b) => a - b),
        sub,
      ),
    ).toBeLessThan(0.03)
  })

  test('keys too large to pack (the work of a multi-megabase record) select as their order says', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: 0, max: 3000 }), { minLength: 1, maxLength: 200 }),
        fc.nat(),
        (keys, seed) => {
          const wanted = 1 + (seed % keys.length)
          // Scaling keys keeps their order (ties included), so the selection must not change.
          const large = keys.map((k) => k * 2 ** 27)
          expect(selectStratified(large, wanted, 7, createRandom(seed))).toEqual(
            selectStratified(keys, wanted, 7, createRandom(seed)),
          )
        },
      ),
    )
  })

  test('rejects a key that is not an integer >= 0, naming the record', () => {
    expect(() => selectStratified([1, -2], 1, 1, createRandom(1))).toThrow('record 2: key -2')
    expect(() => selectStratified([1.5, 2], 1, 1, createRandom(1))).toThrow('record 1: key 1.5')
  })

  test('rejects asking for more records than the source has', () => {
    expect(() => selectStratified([1, 2], 3, 5, createRandom(1))).toThrow(/\[1, 2\].*got 3/)
  })
})
