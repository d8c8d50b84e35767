import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { expandGrid, parseSweepGrid, SweepGridError } from '../../src/engine/sweep-grid.ts'

const option = fc.stringMatching(/^--[a-z][a-z-]{0,12}$/)
const values = fc.array(fc.oneof(fc.integer({ min: 1, max: 1e6 }), fc.stringMatching(/^[a-z0-9]{1,6}$/)), {
  minLength: 1,
  maxLength: 4,
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
