/**
 * Samples as the statistics see them: finite numbers, sorted ascending once, branded so that functions which need
 * order can demand it in their type instead of re-sorting (tinybench's `SortedSamples` idea).
 */
import { MeasureInputError } from './errors.ts'

declare const sortedBrand: unique symbol
/** A read-only array of finite numbers in ascending order. Build it with `toSorted` or `assertSorted`. */
export type SortedSamples = readonly number[] & { readonly [sortedBrand]: true }

/**
 * Checks that every value is a finite number and that there are at least `minCount` of them.
 * @throws MeasureInputError naming `input`, the index and the value that failed.
 */
export function validateSamples(values: readonly number[], input: string, minCount = 1): void {
  if (values.length < minCount) {
    throw new MeasureInputError(input, `needs at least ${minCount} value(s), got ${values.length}`)
  }
  for (let i = 0; i < values.length; i++) {
    const value = values[i]
    if (typeof value !== 'number' || !Number.isFinite(value)) {
      throw new MeasureInputError(input, `value at index ${i} is not a finite number: ${String(value)}`)
    }
  }
}

/**
 * Returns a sorted copy (the input is left as it was).
 * @throws MeasureInputError when a value is not finite or there are fewer than `minCount` values.
 */
export function toSorted(values: readonly number[], input = 'samples', minCount = 1): SortedSamples {
  validateSamples(values, input, minCount)
  return [...values].sort((a, b) => a - b) as unknown as SortedSamples
}

/**
 * Brands an array that the caller says is already sorted, after checking that it is.
 * @throws MeasureInputError when the values are not finite or not in ascending order.
 */
export function assertSorted(values: readonly number[], input = 'samples'): SortedSamples {
  validateSamples(values, input)
  for (let i = 1; i < values.length; i++) {
    if ((values[i] as number) < (values[i - 1] as number)) {
      throw new MeasureInputError(input, `not sorted: index ${i} (${values[i]}) < index ${i - 1} (${values[i - 1]})`)
    }
  }
  return values as SortedSamples
}

/** Checks a confidence level in (0, 1). @throws MeasureInputError naming `input` and the value. */
export function validateLevel(level: number, input = 'level'): void {
  if (!(level > 0 && level < 1)) throw new MeasureInputError(input, `must be in (0, 1), got ${level}`)
}
