/**
 * What a sample must hold for the capacity answer's sizes (issue 58), checked before any run by the settings check
 * (doctor and the gpu project's global setup) and read by the plan (capacity/structure.ts):
 * - two fitted sizes at least MIN_SIZE_RATIO apart (closer ones leave the per-sequence cost inside run-to-run noise),
 *   so a sample the plan fits at sizes x2 apart and holds a size x2 above them out of needs SMALLEST_SAMPLE records;
 * - a size above the largest fitted one, within the sample, for the held-out check: without one the answer cannot
 *   read FINAL, which the plan says before the first run.
 * Pure.
 */
import { formatRefusal } from '../platform/setting-error.ts'

/** The least ratio between two fitted sizes, and between the largest fitted size and the held-out one. */
export const MIN_SIZE_RATIO = 1.5
/** The least sample a plan can split: sizes of 1 and 2 records, the held-out sample of 4 above them. */
export const SMALLEST_SAMPLE = 4

const n = (x: number) => Math.round(x).toLocaleString('en-US')

/** Sizes closer than MIN_SIZE_RATIO to their neighbour (ascending pairs), for VIRNUCPRO_BENCH_SIZES's check. */
export function tooCloseSizes(sizes: readonly number[]): [number, number] | null {
  const sorted = [...sizes].sort((a, b) => a - b)
  for (let i = 1; i < sorted.length; i++)
    if (sorted[i]! < sorted[i - 1]! * MIN_SIZE_RATIO) return [sorted[i - 1]!, sorted[i]!]
  return null
}

/**
 * What refuses a sample of `sampleRecords` for the capacity answer, in one line, or null: a sample too small to plan
 * sizes from (a note before any run, the capacity answer's own failure: probe.ts); sizes given (VIRNUCPRO_BENCH_SIZES)
 * that the sample does not hold (a bad setting).
 */
export function sampleSizesProblem(sampleRecords: number, given: readonly number[] | null): string | null {
  if (given) {
    const over = given.filter((s) => s > sampleRecords)
    return over.length === 0
      ? null
      : formatRefusal(
          `VIRNUCPRO_BENCH_SIZES=${given.join(',')}`,
          `${over.map(n).join(' and ')} records ${over.length === 1 ? 'is' : 'are'} more than the sample's ${n(sampleRecords)} (VIRNUCPRO_BENCH_INPUT)`,
          'give sizes below the sample, or a larger sample',
        )
  }
  return sampleRecords >= SMALLEST_SAMPLE
    ? null
    : formatRefusal(
        'VIRNUCPRO_BENCH_INPUT',
        `a sample of ${n(sampleRecords)} record${sampleRecords === 1 ? '' : 's'} is too small for the capacity answer's sizes (two sizes x2 apart and a larger one held out need ${SMALLEST_SAMPLE} records at the least; ${n(1_000)} or more to fit above start-up)`,
        'give a larger sample for the capacity answer (the other suites run on it)',
      )
}

/**
 * Where sizes given by the user leave no size for the held-out check (the sample no larger than MIN_SIZE_RATIO times
 * the largest size), the line that says so before the first run; null where they leave one.
 */
export function noHeldOutNote(sampleRecords: number, given: readonly number[]): string | null {
  const largest = Math.max(...given)
  if (sampleRecords >= largest * MIN_SIZE_RATIO) return null
  return `capacity held-out check: none possible: the sample (${n(sampleRecords)} records) is not ${MIN_SIZE_RATIO}x the largest size (${n(largest)}), so the answer cannot read FINAL; a sample of ${n(Math.ceil(largest * MIN_SIZE_RATIO))} records, or sizes up to ${n(Math.floor(sampleRecords / MIN_SIZE_RATIO))}, would leave one`
}
