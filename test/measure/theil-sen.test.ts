import fc from 'fast-check'
import { expect, test } from 'vitest'
import { theilSenSlope } from '../../src/measure/theil-sen.ts'

const finite = fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true })
const index = fc.integer({ min: -1_000, max: 1_000 })
const closeTo = (actual: number | null, expected: number) =>
  expect(Math.abs(actual! - expected)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(expected)))

test('recovers the slope of any line exactly (up to rounding)', () => {
  fc.assert(
    fc.property(finite, finite, fc.integer({ min: 2, max: 60 }), (slope, intercept, n) => {
      const xs = Array.from({ length: n }, (_, i) => i)
      const estimate = theilSenSlope(
        xs,
        xs.map((x) => intercept + slope * x),
      )!
      expect(estimate).toBeCloseTo(slope, 6)
    }),
  )
})

test('shifting y leaves it unchanged, scaling y scales it, reordering the points changes nothing', () => {
  fc.assert(
    fc.property(fc.array(fc.tuple(index, finite), { minLength: 3, maxLength: 40 }), finite, (points, shift) => {
      const xs = points.map(([x]) => x)
      const ys = points.map(([, y]) => y)
      const base = theilSenSlope(xs, ys)
      if (base === null) return
      expect(
        theilSenSlope(
          xs,
          ys.map((y) => y + shift),
        ),
      ).toBeCloseTo(base, 3)
      expect(
        theilSenSlope(
          xs,
          ys.map((y) => 3 * y),
        ),
      ).toBeCloseTo(3 * base, 3)
      closeTo(theilSenSlope([...xs].reverse(), [...ys].reverse()), base)
    }),
  )
})

test('a step (an allocator that grows once and holds) has slope 0; a steady rise keeps its slope', () => {
  const xs = Array.from({ length: 40 }, (_, i) => i)
  // Seen on an H200: 8,611 MiB for 34 ESM-2 batches, then 9,911 MiB; least squares called that 21 MiB per batch.
  expect(
    theilSenSlope(
      xs,
      xs.map((x) => (x < 34 ? 8_611 : 9_911)),
    ),
  ).toBe(0)
  expect(
    theilSenSlope(
      xs,
      xs.map((x) => 6_000 + 512 * x + (x === 7 ? 40_000 : 0)),
    ),
  ).toBe(512)
})

test('fewer than two distinct x values give null', () => {
  expect(theilSenSlope([1, 1, 1], [1, 2, 3])).toBeNull()
  expect(theilSenSlope([], [])).toBeNull()
})

test('mismatched lengths and non-finite values are input errors', () => {
  expect(() => theilSenSlope([1, 2], [1])).toThrow(/x has 2 values, y 1/)
  expect(() => theilSenSlope([1, 2], [1, Number.NaN])).toThrow(/non-finite/)
})
