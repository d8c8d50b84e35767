import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { nestedOrder, reverseBits, selectPrefix } from '../../src/input/nested-order.ts'
import { createRandom } from '../../src/input/random.ts'
import { sortedByKey } from '../../src/input/stratify.ts'

/** Largest |count - m L / N| over cyclic runs of L sorted positions, for the first m records of `order`. */
function worstDeviation(keys: readonly number[], order: Uint32Array, m: number): number {
  const n = keys.length
  const rank = new Uint32Array(n)
  sortedByKey(keys).forEach((record, position) => {
    rank[record] = position
  })
  const prefix = new Float64Array(n + 1)
  const picked = new Uint8Array(n)
  for (let i = 0; i < m; i++) picked[rank[order[i]!]!] = 1
  for (let i = 0; i < n; i++) prefix[i + 1] = prefix[i]! + picked[i]!
  let worst = 0
  for (let a = 0; a < n; a++)
    for (let length = 1; length <= n; length++) {
      const b = a + length
      const count = b <= n ? prefix[b]! - prefix[a]! : prefix[n]! - prefix[a]! + prefix[b - n]!
      worst = Math.max(worst, Math.abs(count - (m * length) / n))
    }
  return worst
}

describe('nestedOrder', () => {
  test('is a permutation of the records, the same for the same seed', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 5000 }), { maxLength: 400 }), fc.nat(), (keys, seed) => {
        const order = nestedOrder(keys, createRandom(seed))
        expect([...order].sort((a, b) => a - b)).toEqual(keys.map((_, i) => i))
        expect(nestedOrder(keys, createRandom(seed))).toEqual(order)
      }),
    )
  })

  test('every prefix spreads over the sorted keys: any run of L sorted records holds m L / N of the first m, within log2(N) / 2 + 1', () => {
    fc.assert(
      fc.property(
        fc.array(fc.nat({ max: 3000 }), { minLength: 1, maxLength: 160 }),
        fc.nat(),
        fc.nat(),
        (keys, seed, at) => {
          const order = nestedOrder(keys, createRandom(seed))
          const m = 1 + (at % keys.length)
          expect(worstDeviation(keys, order, m)).toBeLessThanOrEqual(Math.log2(keys.length + 1) / 2 + 1)
        },
      ),
    )
  })

  test('a plain random permutation breaks that bound (so the test can fail)', () => {
    const keys = Array.from({ length: 160 }, (_, i) => i)
    const random = createRandom(3)
    const shuffled = Uint32Array.from(keys)
    for (let i = shuffled.length - 1; i > 0; i--) {
      const j = random.intBelow(i + 1)
      ;[shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!]
    }
    expect(worstDeviation(keys, shuffled, 40)).toBeGreaterThan(Math.log2(161) / 2 + 1)
  })

  test('reverseBits reverses the low bits', () => {
    expect(reverseBits(1, 3)).toBe(4)
    expect(reverseBits(6, 3)).toBe(3)
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 20 }), fc.nat(), (bits, x) => {
        const i = x % 2 ** bits
        expect(reverseBits(reverseBits(i, bits), bits)).toBe(i)
      }),
    )
  })
})

describe('selectPrefix', () => {
  test('a smaller prefix is inside a larger one', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 100 }), { minLength: 2, maxLength: 300 }), fc.nat(), (keys, seed) => {
        const order = nestedOrder(keys, createRandom(seed))
        const small = selectPrefix(order, Math.max(1, Math.floor(keys.length / 3)))
        const large = selectPrefix(order, keys.length - 1)
        small.forEach((flag, i) => {
          if (flag) expect(large[i]).toBe(1)
        })
      }),
    )
  })

  test('names the valid range for a bad count', () => {
    expect(() => selectPrefix(new Uint32Array(5), 6)).toThrow(/\[1, 5\].*got 6/)
    expect(() => selectPrefix(new Uint32Array(5), 0)).toThrow(/got 0/)
  })
})
