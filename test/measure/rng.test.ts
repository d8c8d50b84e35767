import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createRandomSource, DEFAULT_SEED } from '../../src/measure/rng.ts'

describe('createRandomSource', () => {
  test('the same seed gives the same stream', () => {
    fc.assert(
      fc.property(fc.string(), (seed) => {
        const a = createRandomSource(seed)
        const b = createRandomSource(seed)
        for (let i = 0; i < 20; i++) expect(a()).toBe(b())
      }),
    )
  })

  test('values lie in [0, 1)', () => {
    const random = createRandomSource(DEFAULT_SEED)
    for (let i = 0; i < 10_000; i++) {
      const value = random()
      expect(value >= 0 && value < 1).toBe(true)
    }
  })

  test('different seeds give different streams', () => {
    expect(createRandomSource('a')()).not.toBe(createRandomSource('b')())
  })
})
