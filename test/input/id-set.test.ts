import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { IdSet } from '../../src/input/id-set.ts'

describe('IdSet', () => {
  test('add is true exactly for IDs not seen before, as a Set of strings says', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('a', 'b', 'c', '1', '_'), maxLength: 6 }), { maxLength: 300 }),
        (ids) => {
          const set = new IdSet()
          const model = new Set<string>()
          for (const id of ids) {
            const bytes = Buffer.from(`>${id} desc`, 'latin1')
            expect(set.add(bytes, 1, 1 + id.length)).toBe(!model.has(id))
            model.add(id)
          }
          expect(set.size).toBe(model.size)
        },
      ),
    )
  })

  test('insert gives -1 for a new ID, else the index of the entry (in order of adding) that holds it', () => {
    fc.assert(
      fc.property(
        fc.array(fc.string({ unit: fc.constantFrom('x', 'y', '2'), maxLength: 4 }), { maxLength: 200 }),
        (ids) => {
          const set = new IdSet()
          const order: string[] = []
          for (const id of ids) {
            const bytes = Buffer.from(id, 'latin1')
            expect(set.insert(bytes, 0, bytes.length)).toBe(order.indexOf(id))
            if (!order.includes(id)) order.push(id)
          }
        },
      ),
    )
  })

  test('keeps working as it grows past its first table and arena (100k IDs)', () => {
    const set = new IdSet()
    const id = (i: number) => Buffer.from(`sample_${i}_read`, 'latin1')
    for (let i = 0; i < 100_000; i++) expect(set.add(id(i), 0, id(i).length)).toBe(true)
    for (const i of [0, 1, 4095, 4096, 65_535, 99_999]) expect(set.add(id(i), 0, id(i).length)).toBe(false)
    expect(set.size).toBe(100_000)
  })
})
