/**
 * The Theil-Sen slope: the median of the slopes of all pairs of points with distinct x. Unlike least squares it is not
 * pulled by a few points or by one step in the data (up to ~29% of the points can be anything), which is what tells a
 * leak (memory rising batch after batch) from an allocator that grows once and then holds (a step).
 */

import { MeasureInputError } from './errors.ts'
import { median } from './estimators.ts'
import { toSorted } from './samples.ts'

/** Above this many points, pairs are formed from an evenly spaced subset: all pairs of 2,000 points are ~2 M slopes. */
const MAX_POINTS = 2_000

/**
 * @returns the slope (y units per x unit), or null when fewer than two distinct x values exist.
 * @throws MeasureInputError when the arrays differ in length or hold a non-finite value.
 */
export function theilSenSlope(xs: readonly number[], ys: readonly number[]): number | null {
  if (xs.length !== ys.length) throw new MeasureInputError('theilSenSlope', `x has ${xs.length} values, y ${ys.length}`)
  if (![...xs, ...ys].every(Number.isFinite)) throw new MeasureInputError('theilSenSlope', 'non-finite value')
  const step = Math.max(1, Math.ceil(xs.length / MAX_POINTS))
  const slopes: number[] = []
  for (let i = 0; i < xs.length; i += step)
    for (let j = i + step; j < xs.length; j += step) {
      const dx = xs[j]! - xs[i]!
      if (dx !== 0) slopes.push((ys[j]! - ys[i]!) / dx)
    }
  return slopes.length === 0 ? null : median(toSorted(slopes, 'pairwise slopes'))
}
