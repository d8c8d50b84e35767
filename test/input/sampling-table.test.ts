import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { buildSamplingTable, entryCounts, TABLE_SIZE } from '../../src/input/sampling-table.ts'

const weights = fc
  .array(fc.double({ min: 0, max: 100, noNaN: true }), { minLength: 1, maxLength: 64 })
  .filter((w) => w.some((x) => x > 0))

describe('sampling tables', () => {
  test('entry counts sum to 65,536, are proportional within a few entries, and zero weights get none', () => {
    fc.assert(
      fc.property(weights, (w) => {
        const counts = entryCounts(w)
        const total = w.reduce((a, b) => a + b, 0)
        expect(counts.reduce((a, b) => a + b, 0)).toBe(TABLE_SIZE)
        counts.forEach((c, i) => {
          if (w[i] === 0) expect(c).toBe(0)
          else expect(Math.abs(c - (w[i]! / total) * TABLE_SIZE)).toBeLessThanOrEqual(w.length + 1)
        })
      }),
    )
  })

  test('the table holds each outcome as often as its count', () => {
    const table = buildSamplingTable([1, 0, 3])
    expect(table.filter((x) => x === 0).length).toBe(16_384)
    expect(table.filter((x) => x === 2).length).toBe(49_152)
  })

  test('rejects no weights, negative and all-zero weights', () => {
    expect(() => entryCounts([])).toThrow(/1 to 256/)
    expect(() => entryCounts([1, -1])).toThrow(/weight 1/)
    expect(() => entryCounts([0, 0])).toThrow(/zero/)
  })
})
