import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { DEFAULT_SIZES, suiteSettings } from '../../src/suites/settings.ts'

describe('suiteSettings: VIRNUCPRO_BENCH_SIZES', () => {
  test('defaults to the documented sizes', () => {
    expect(suiteSettings({}).sizes).toEqual(DEFAULT_SIZES)
    expect(DEFAULT_SIZES).toEqual([1_000, 10_000])
  })

  test('any two or more distinct counts >= 2 parse, ascending, whatever the order and spacing given', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer({ min: 2, max: 10_000_000 }), { minLength: 2, maxLength: 6 }), (sizes) => {
        const raw = sizes.map((n, i) => (i % 2 ? ` ${n}` : `${n} `)).join(',')
        expect(suiteSettings({ VIRNUCPRO_BENCH_SIZES: raw }).sizes).toEqual([...sizes].sort((a, b) => a - b))
      }),
    )
  })

  test.for(['1000', '1000,1000', '1000,x', '1,1000', '1000,,2000', '1000.5,2000'])(
    "'%s' is refused naming the variable and the value",
    (raw) => {
      expect(() => suiteSettings({ VIRNUCPRO_BENCH_SIZES: raw })).toThrow(
        `VIRNUCPRO_BENCH_SIZES must be two or more distinct record counts >= 2, comma-separated (e.g. 1000,10000), got '${raw}'`,
      )
    },
  )
})
