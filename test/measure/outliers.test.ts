import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { flagOutliers, MODIFIED_Z_THRESHOLD } from '../../src/measure/outliers.ts'

describe('flagOutliers', () => {
  test('flags a run far from the rest, by its index in run order, and keeps every run', () => {
    const runs = [100, 101, 99, 100.5, 150, 99.5, 100.2]
    const report = flagOutliers(runs)
    expect(report.method).toBe('modified-z-mad')
    expect(report.outliers.map((o) => o.index)).toEqual([4])
    expect(report.outliers[0]!.score).toBeGreaterThan(MODIFIED_Z_THRESHOLD)
    expect(runs).toHaveLength(7)
  })

  test('scores are 0.6745 (x - median) / MAD', () => {
    const report = flagOutliers([1, 2, 3, 4, 100])
    // median 3, MAD 1: score of 100 is 0.6745 * 97.
    expect(report.outliers).toEqual(
      [{ index: 4, value: 100, score: 0.6745 * 97 }].map((o) => ({ ...o, score: expect.closeTo(o.score, 9) })),
    )
  })

  test('falls back to the mean absolute deviation when more than half the runs are equal', () => {
    const report = flagOutliers([10, 10, 10, 10, 10, 10, 30])
    expect(report.method).toBe('modified-z-meanad')
    expect(report.outliers.map((o) => o.value)).toEqual([30])
  })

  test('identical runs have no outliers', () => {
    expect(flagOutliers([5, 5, 5])).toMatchObject({ method: 'none-no-spread', outliers: [] })
  })

  test('is invariant to order, shift and positive scale (same runs flagged)', () => {
    const sample = fc.array(
      fc.integer({ min: -100_000, max: 100_000 }).map((v) => v / 100),
      { minLength: 3, maxLength: 40 },
    )
    fc.assert(
      fc.property(
        sample,
        fc.double({ min: 0.01, max: 100, noNaN: true }),
        fc.double({ min: -1e3, max: 1e3, noNaN: true }),
        (values, c, shift) => {
          const flagged = new Set(flagOutliers(values).outliers.map((o) => o.index))
          const transformed = new Set(flagOutliers(values.map((v) => v * c + shift)).outliers.map((o) => o.index))
          // Rounding can move a score sitting exactly on the threshold; compare away from it.
          const clear = flagOutliers(values).outliers.every(
            (o) => Math.abs(Math.abs(o.score) - MODIFIED_Z_THRESHOLD) > 1e-6,
          )
          if (clear) for (const index of flagged) expect(transformed.has(index)).toBe(true)
          const reversed = flagOutliers([...values].reverse()).outliers.map((o) => values.length - 1 - o.index)
          expect(new Set(reversed)).toEqual(flagged)
        },
      ),
    )
  })
})
