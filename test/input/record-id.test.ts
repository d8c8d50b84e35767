import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { SequentialId } from '../../src/input/record-id.ts'

const text = (id: SequentialId) => Buffer.from(id.bytes.subarray(0, id.length)).toString('latin1')

describe('SequentialId', () => {
  test('after set(n) and k increments the ID is prefix + (n + k), across digit roll-overs', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.nat({ max: 2000 }), fc.constantFrom(9, 99, 999_999, 9_999_999_998)),
        fc.nat({ max: 300 }),
        (n, k) => {
          const id = new SequentialId('seq')
          id.set(n)
          for (let i = 0; i < k; i++) id.increment()
          expect(text(id)).toBe(`seq${n + k}`)
        },
      ),
    )
  })

  test('rejects a negative or fractional number and an unprintable or long prefix', () => {
    expect(() => new SequentialId('seq').set(-1)).toThrow(/safe integer >= 0, got -1/)
    expect(() => new SequentialId('seq').set(1.5)).toThrow(/got 1.5/)
    expect(() => new SequentialId('a b')).toThrow(/prefix/)
    expect(() => new SequentialId('x'.repeat(17))).toThrow(/prefix/)
  })
})
