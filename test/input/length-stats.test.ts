import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { LengthCounts } from '../../src/input/length-stats.ts'

const lengths = fc.array(fc.integer({ min: 1, max: 5000 }), { minLength: 1, maxLength: 200 })
const counted = (xs: number[]) => {
  const counts = new LengthCounts()
  for (const x of xs) counts.add(x)
  return counts
}

describe('LengthCounts', () => {
  test('quantiles are nearest-rank on the sorted lengths', () => {
    fc.assert(
      fc.property(lengths, fc.double({ min: 0, max: 1, noNaN: true }), (xs, q) => {
        const sorted = [...xs].sort((a, b) => a - b)
        expect(counted(xs).quantile(q)).toBe(sorted[Math.max(1, Math.ceil(q * xs.length)) - 1])
      }),
    )
  })

  test('the histogram covers [min, max], holds every record, at most 50 bins', () => {
    fc.assert(
      fc.property(lengths, (xs) => {
        const { edges, counts } = counted(xs).histogram()
        expect(counts.reduce((a, b) => a + b, 0)).toBe(xs.length)
        expect(edges[0]).toBe(Math.min(...xs))
        expect(edges.at(-1)!).toBeGreaterThan(Math.max(...xs))
        expect(counts.length).toBeLessThanOrEqual(50)
        for (const x of xs) {
          const bin = edges.findIndex((e, i) => x >= e && x < edges[i + 1]!)
          expect(bin).toBeGreaterThanOrEqual(0)
        }
      }),
    )
  })

  test('records, bases, mean', () => {
    const c = counted([100, 200, 600])
    expect([c.records, c.bases, c.summary().mean, c.min, c.max]).toEqual([3, 900, 300, 100, 600])
  })
})
