/**
 * The calibration of change-point detection: the pair loop at the heart of E-Divisive, run plainly once over every
 * window of every series (60-point windows advancing by 30, as the detector's search does): the sum of |x_i - x_j|
 * over all pairs of a window. The detector does this and more (bisection, running sums per split, permutations of
 * the few splits it tests, merging).
 */
const WINDOW_POINTS = 60
const STEP_POINTS = 30

/** Sum over all windows of the summed pairwise distances (returned so the work cannot be skipped). */
export function windowPairDistances(values: Float64Array): number {
  let total = 0
  for (let start = 0; start < values.length; start += STEP_POINTS) {
    const end = Math.min(start + WINDOW_POINTS, values.length)
    for (let i = start; i < end; i++) {
      const xi = values[i]!
      for (let j = i + 1; j < end; j++) total += Math.abs(xi - values[j]!)
    }
    if (end === values.length) break
  }
  return total
}
