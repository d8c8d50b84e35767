import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { expandGrid, parseSweepGrid, SweepGridError } from '../../src/engine/sweep-grid.ts'

const option = fc.stringMatching(/^--[a-z][a-z-]{0,12}$/)
// Distinct as labels: 2048 and "2048" are one setting (refused below).
const values = fc.uniqueArray(fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.stringMatching(/^[a-z0-9]{1,6}$/)), {
  minLength: 1,
  maxLength: 4,
  selector: String,
})

describe('parseSweepGrid', () => {
  test('round-trips any valid grid written as JSON', () => {
    fc.assert(
      fc.property(fc.dictionary(option, values, { minKeys: 1, maxKeys: 3 }), (grid) => {
        expect(parseSweepGrid(JSON.stringify(grid))).toEqual(grid)
      }),
    )
  })

  test('names the option and the bad value', () => {
    expect(() => parseSweepGrid('{"--esm-batch-size": []}')).toThrow(/--esm-batch-size needs a non-empty list/)
    expect(() => parseSweepGrid('{"batch": [1]}')).toThrow(SweepGridError)
    expect(() => parseSweepGrid('{"-w": [null]}')).toThrow(/-w has a bad value null/)
    expect(() => parseSweepGrid('nope', 'FILE')).toThrow(/^FILE: not JSON/)
  })

  // Issue 47: a value given twice passed the parser, and the study stopped mid-run on `RangeError: arm labels must be
  // unique`. One setting a label: refused before any run, naming the option and the value.
  test('refuses a value given twice, as a number and as text too, and two spellings of one option', () => {
    expect(() => parseSweepGrid('{"--dnabert-batch-size": [2048, 8192, 2048]}')).toThrow(
      /^VIRNUCPRO_BENCH_SWEEP: --dnabert-batch-size lists "2048" twice: give each value once$/,
    )
    expect(() => parseSweepGrid('{"-w": [2, "2"]}')).toThrow(/-w lists "2" twice/)
    expect(() => parseSweepGrid('{"-w": [2], "--w": [4]}')).toThrow(/'-w' and '--w' both label their settings 'w='/)
    fc.assert(
      fc.property(option, values, fc.integer({ min: 0, max: 3 }), (o, v, i) => {
        const doubled = [...v, v[i % v.length]!]
        expect(() => parseSweepGrid(JSON.stringify({ [o]: doubled }))).toThrow(SweepGridError)
      }),
    )
  })
})

describe('expandGrid', () => {
  test('gives the product of the value counts, each with its options appended once', () => {
    fc.assert(
      fc.property(fc.dictionary(option, values, { minKeys: 1, maxKeys: 3 }), (grid) => {
        const configs = expandGrid({ label: 'base', gpus: [0], extraArgs: ['--x'] }, grid)
        const product = Object.values(grid).reduce((n, v) => n * v.length, 1)
        expect(configs).toHaveLength(product)
        for (const c of configs) expect(c.extraArgs).toHaveLength(1 + 2 * Object.keys(grid).length)
      }),
    )
  })
})
