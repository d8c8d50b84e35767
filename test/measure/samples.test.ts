import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { MeasureInputError } from '../../src/measure/errors.ts'
import { assertSorted, toSorted, validateLevel } from '../../src/measure/samples.ts'

describe('toSorted', () => {
  test('returns an ascending copy and leaves the input alone', () => {
    fc.assert(
      fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { minLength: 1 }), (values) => {
        const before = [...values]
        const sorted = toSorted(values)
        expect(values).toEqual(before)
        for (let i = 1; i < sorted.length; i++) expect(sorted[i]! >= sorted[i - 1]!).toBe(true)
        expect([...sorted].sort((a, b) => a - b)).toEqual([...values].sort((a, b) => a - b))
      }),
    )
  })

  test('names the input, index and value of a non-finite sample', () => {
    expect(() => toSorted([1, Number.NaN], 'wall times')).toThrow(/wall times: value at index 1 .*NaN/)
  })

  test('rejects an empty sample with a MeasureInputError', () => {
    expect(() => toSorted([], 'runs')).toThrow(MeasureInputError)
  })
})

describe('assertSorted', () => {
  test('rejects unsorted values, naming the index', () => {
    expect(() => assertSorted([1, 3, 2])).toThrow(/index 2/)
  })
})

describe('validateLevel', () => {
  test('accepts (0, 1) only', () => {
    expect(() => validateLevel(0.95)).not.toThrow()
    for (const bad of [0, 1, -0.1, 95, Number.NaN]) expect(() => validateLevel(bad)).toThrow(MeasureInputError)
  })
})
