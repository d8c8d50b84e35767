import fc from 'fast-check'
import { quantileSorted } from 'simple-statistics'
import { describe, expect, test } from 'vitest'
import { bootstrapQuantile, bootstrapRatioOfMedians, percentileInterval } from '../../src/measure/bootstrap.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import { toSorted } from '../../src/measure/samples.ts'

const sample = fc.array(fc.double({ min: 1, max: 1e4, noNaN: true }), { minLength: 1, maxLength: 40 })

/** The textbook bootstrap: draw values, sort, take the quantile. The counting version must agree draw for draw. */
function naiveReplicates(values: readonly number[], p: number, resamples: number, seed: string): number[] {
  const random = createRandomSource(seed)
  const sorted = toSorted(values)
  const out: number[] = []
  for (let b = 0; b < resamples; b++) {
    const draw = Array.from({ length: sorted.length }, () => sorted[Math.floor(random() * sorted.length)]!)
    out.push(
      quantileSorted(
        draw.sort((x, y) => x - y),
        p,
      ),
    )
  }
  return out.sort((x, y) => x - y)
}

describe('bootstrapQuantile', () => {
  test('equals sorting each resample, given the same random stream', () => {
    fc.assert(
      fc.property(sample, fc.double({ min: 0, max: 1, noNaN: true }), fc.string(), (values, p, seed) => {
        const fast = bootstrapQuantile(toSorted(values), p, 50, createRandomSource(seed))
        const naive = naiveReplicates(values, p, 50, seed)
        for (const [i, value] of naive.entries()) expect(fast[i]).toBeCloseTo(value, 9)
      }),
    )
  })

  test('is reproducible for a seed', () => {
    const sorted = toSorted([5, 1, 4, 2, 8, 7])
    const a = bootstrapQuantile(sorted, 0.5, 200, createRandomSource('s'))
    const b = bootstrapQuantile(sorted, 0.5, 200, createRandomSource('s'))
    expect(Array.from(a)).toEqual(Array.from(b))
  })

  test('replicates come back sorted and within the sample range', () => {
    fc.assert(
      fc.property(sample, (values) => {
        const sorted = toSorted(values)
        const replicates = bootstrapQuantile(sorted, 0.5, 100, createRandomSource('r'))
        for (let i = 1; i < replicates.length; i++) expect(replicates[i]! >= replicates[i - 1]!).toBe(true)
        expect(replicates[0]! >= sorted[0]!).toBe(true)
        expect(replicates[replicates.length - 1]! <= sorted[sorted.length - 1]!).toBe(true)
      }),
    )
  })
})

describe('bootstrapRatioOfMedians', () => {
  test('the ratio of a sample with itself scaled by c is c in every replicate pair of equal draws', () => {
    const sorted = toSorted([3, 3, 3, 3])
    const replicates = bootstrapRatioOfMedians(toSorted([6, 6, 6]), sorted, 100, createRandomSource('c'))
    expect(new Set(replicates)).toEqual(new Set([2]))
  })
})

describe('percentileInterval', () => {
  test('takes the type-7 tail quantiles of the replicates', () => {
    const replicates = Float64Array.from({ length: 101 }, (_, i) => i)
    const { low, high } = percentileInterval(replicates, 0.9)
    expect(low).toBeCloseTo(5, 9)
    expect(high).toBeCloseTo(95, 9)
  })
})
