import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { DEFAULT_SIZES, suiteSettings } from '../../src/engine/settings.ts'

describe('suiteSettings: the capacity budget', () => {
  test("the pipeline's own unless set: 15 GPU-minutes for the reference pipeline, 60 for VirNucPro", () => {
    expect(suiteSettings({}).capacityBudgetGpuMin).toBe(15)
    expect(suiteSettings({ VIRNUCPRO_BENCH_TARGET: 'reference' }).capacityBudgetGpuMin).toBe(15)
    expect(suiteSettings({ VIRNUCPRO_BENCH_TARGET: 'virnucpro' }).capacityBudgetGpuMin).toBe(60)
    expect(
      suiteSettings({ VIRNUCPRO_BENCH_TARGET: 'virnucpro', VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN: '25' })
        .capacityBudgetGpuMin,
    ).toBe(25)
  })
})

describe('suiteSettings: VIRNUCPRO_BENCH_SIZES', () => {
  test('defaults to the documented sizes', () => {
    expect(suiteSettings({}).sizes).toEqual(DEFAULT_SIZES)
    expect(DEFAULT_SIZES).toEqual([1_000, 4_000])
  })

  test('any two or more counts >= 2, each at least 1.5x the one below, parse, ascending, whatever the order and spacing given', () => {
    const spaced = fc
      .tuple(
        fc.integer({ min: 2, max: 1_000 }),
        fc.array(fc.double({ min: 1.5, max: 8, noNaN: true }), { minLength: 1, maxLength: 5 }),
      )
      .map(([first, ratios]) => {
        const sizes = [first]
        for (const r of ratios) sizes.push(Math.ceil(sizes.at(-1)! * r))
        return sizes
      })
    fc.assert(
      fc.property(spaced, fc.boolean(), (sizes, reversed) => {
        const given = reversed ? [...sizes].reverse() : sizes
        const raw = given.map((n, i) => (i % 2 ? ` ${n}` : `${n} `)).join(',')
        expect(suiteSettings({ VIRNUCPRO_BENCH_SIZES: raw }).sizes).toEqual([...sizes].sort((a, b) => a - b))
      }),
    )
  })

  test('issue 58: two sizes closer than 1.5x are refused, naming both', () => {
    expect(() => suiteSettings({ VIRNUCPRO_BENCH_SIZES: '500,501' })).toThrow(
      /VIRNUCPRO_BENCH_SIZES='500,501'.*500 and 501 are less than 1\.5x apart/,
    )
  })

  test.for(['1000', '1000,1000', '1000,x', '1,1000', '1000,,2000', '1000.5,2000'])(
    "'%s' is refused naming the variable and the value",
    (raw) => {
      expect(() => suiteSettings({ VIRNUCPRO_BENCH_SIZES: raw })).toThrow(
        `VIRNUCPRO_BENCH_SIZES='${raw}': not two or more distinct record counts >= 2, comma-separated; write them in decimal digits, e.g. VIRNUCPRO_BENCH_SIZES=1000,10000`,
      )
    },
  )
})

describe('suiteSettings: counts and switches', () => {
  test.for([
    ['0x10', 'hexadecimal is not read', 'VIRNUCPRO_BENCH_RUNS=16'],
    ['1e3', 'exponent notation is not read', 'VIRNUCPRO_BENCH_RUNS=1000'],
    ['1_000', 'digit separators are not read', 'VIRNUCPRO_BENCH_RUNS=1000'],
    ['+3', 'a sign is not read', 'VIRNUCPRO_BENCH_RUNS=3'],
    ['3.0', 'it must be whole', 'VIRNUCPRO_BENCH_RUNS=3'],
    ['three', 'it is not a number', 'e.g. VIRNUCPRO_BENCH_RUNS=3'],
  ])(
    "VIRNUCPRO_BENCH_RUNS='%s' (JavaScript would read a number) is refused, offering it in digits",
    ([raw, why, fix]) => {
      expect(() => suiteSettings({ VIRNUCPRO_BENCH_RUNS: raw })).toThrow(
        `VIRNUCPRO_BENCH_RUNS='${raw}': not a whole number in decimal digits (${why}); `,
      )
      expect(() => suiteSettings({ VIRNUCPRO_BENCH_RUNS: raw })).toThrow(fix!)
    },
  )

  test('a count below its minimum says the range', () => {
    expect(() => suiteSettings({ VIRNUCPRO_BENCH_RUNS: '0' })).toThrow(
      "VIRNUCPRO_BENCH_RUNS='0': out of range (1 or more); set it to a number 1 or more, or unset it for the default",
    )
  })

  test('VIRNUCPRO_BENCH_MATRIX: every usual spelling of off turns the matrix off; an unknown word is refused', () => {
    for (const off of ['0', 'false', 'no', 'off', 'OFF', 'False'])
      expect(suiteSettings({ VIRNUCPRO_BENCH_MATRIX: off }).matrix).toBe(false)
    for (const on of ['1', 'true', 'yes', 'on']) expect(suiteSettings({ VIRNUCPRO_BENCH_MATRIX: on }).matrix).toBe(true)
    // Off by default (issue 44): the main job fits 10 minutes on one GPU.
    expect(suiteSettings({}).matrix).toBe(false)
    expect(() => suiteSettings({ VIRNUCPRO_BENCH_MATRIX: 'maybe' })).toThrow(
      "VIRNUCPRO_BENCH_MATRIX='maybe': not a yes/no value; set it to 0, false, no, off or 1, true, yes, on",
    )
  })

  test('decimal values within range parse as themselves, whatever the spaces around them', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 1_000_000 }), (runs) => {
        expect(suiteSettings({ VIRNUCPRO_BENCH_RUNS: ` ${runs} ` }).policy.minRuns).toBe(runs)
      }),
    )
  })

  test('an unknown preset names the closest one', () => {
    expect(() => suiteSettings({ VIRNUCPRO_BENCH_PRESET: 'MEDUIM' })).toThrow(
      "VIRNUCPRO_BENCH_PRESET='MEDUIM': not one of TINY, SMALL, MEDIUM, LARGE, TYPICAL, PRODUCTION (did you mean MEDIUM?); set it to one of them, or unset it",
    )
  })
})
