import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { wrapInPlace, wrappedBytes } from '../../src/input/line-wrap.ts'

describe('wrapInPlace', () => {
  test('gives the same bytes as wrapping a copy line by line', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: fc.constantFrom('A', 'C', 'G', 'T'), maxLength: 400 }),
        fc.integer({ min: 0, max: 90 }),
        fc.integer({ min: 0, max: 12 }),
        (seq, width, gap) => {
          const header = Buffer.from('>id\n')
          const buffer = Buffer.alloc(header.length + gap + seq.length + 200, 0x2e)
          header.copy(buffer)
          buffer.write(seq, header.length + gap, 'latin1')
          const end = wrapInPlace(buffer, header.length, gap, seq.length, width)
          const lines = width === 0 ? [seq] : (seq.match(new RegExp(`.{1,${width}}`, 'g')) ?? [])
          const expected = `>id\n${lines.map((l) => `${l}\n`).join('')}`
          expect(buffer.subarray(0, end).toString('latin1')).toBe(seq.length === 0 ? '>id\n' : expected)
          expect(end - header.length).toBe(seq.length === 0 ? 0 : wrappedBytes(seq.length, width))
        },
      ),
    )
  })
})
