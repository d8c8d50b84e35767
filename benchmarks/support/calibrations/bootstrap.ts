/**
 * The calibration of src/measure's statistics: the textbook way to do the same statistics, with none of the suite's
 * code (its own xorshift, a sorted copy per resample). src/measure/bootstrap.ts draws counts and walks them instead
 * of sorting, so it should stay well under these.
 */
import { unitInterval, XORSHIFT_SEED, xorshift32 } from './xorshift.ts'

/** The median of a sorted Float64Array. */
function sortedMedian(sorted: Float64Array): number {
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/** The random stream's state, threaded through the resamples. */
interface Stream {
  state: number
}

/** One resample's median: draw n values with replacement into `scratch`, sort, take the middle. */
function resampleMedian(values: readonly number[], scratch: Float64Array, stream: Stream): number {
  let state = stream.state
  for (let j = 0; j < values.length; j++) {
    state = xorshift32(state)
    scratch[j] = values[Math.floor(unitInterval(state) * values.length)]!
  }
  stream.state = state
  return sortedMedian(scratch.sort())
}

/** The 2.5% and 97.5% points of `resamples` bootstrap medians of `values`. */
export function textbookMedianCi(values: readonly number[], resamples: number): [number, number] {
  const stream = { state: XORSHIFT_SEED }
  const scratch = new Float64Array(values.length)
  const medians = new Float64Array(resamples)
  for (let b = 0; b < resamples; b++) medians[b] = resampleMedian(values, scratch, stream)
  medians.sort()
  return [medians[Math.floor(0.025 * (resamples - 1))]!, medians[Math.ceil(0.975 * (resamples - 1))]!]
}

/** Mann-Whitney U of a against b by counting every pair (ties count half). */
function mannWhitneyU(a: readonly number[], b: readonly number[]): number {
  let u = 0
  for (const x of a) for (const y of b) u += x > y ? 1 : x === y ? 0.5 : 0
  return u
}

/** Per metric: U, and a bootstrap CI of median(candidate) / median(baseline) from `resamples` sorted resamples. */
export function textbookComparison(
  metrics: readonly { candidate: readonly number[]; baseline: readonly number[] }[],
  resamples: number,
): number {
  const stream = { state: XORSHIFT_SEED }
  let checksum = 0
  for (const { candidate, baseline } of metrics) {
    checksum += mannWhitneyU(candidate, baseline)
    const top = new Float64Array(candidate.length)
    const bottom = new Float64Array(baseline.length)
    const ratios = new Float64Array(resamples)
    for (let b = 0; b < resamples; b++)
      ratios[b] = resampleMedian(candidate, top, stream) / resampleMedian(baseline, bottom, stream)
    ratios.sort()
    checksum += ratios[Math.floor(0.025 * (resamples - 1))]! + ratios[Math.ceil(0.975 * (resamples - 1))]!
  }
  return checksum
}
