import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { createLengthSampler, type LengthDistribution } from '../../src/input/lengths.ts'
import { createRandom } from '../../src/input/random.ts'

const bounds = fc
  .integer({ min: 1, max: 2000 })
  .chain((min) => fc.tuple(fc.constant(min), fc.integer({ min, max: min + 3000 })))

describe('createLengthSampler', () => {
  test('every draw of every kind is an integer within [min, max]', () => {
    fc.assert(
      fc.property(bounds, fc.nat(), fc.double({ min: 0.05, max: 2, noNaN: true }), ([min, max], seed, sigma) => {
        const kinds: LengthDistribution[] = [
          { kind: 'uniform', min, max },
          { kind: 'lognormal', min, max, median: (min + max) / 2, sigma },
          {
            kind: 'empirical',
            min,
            max,
            histogram:
              max > min ? { edges: [min, min + 1, max + 1], counts: [3, 1] } : { edges: [min, min + 1], counts: [1] },
          },
        ]
        for (const kind of kinds) {
          const draw = createLengthSampler(kind, createRandom(seed))
          for (let i = 0; i < 50; i++) {
            const x = draw()
            expect(Number.isInteger(x) && x >= min && x <= max).toBe(true)
          }
        }
      }),
    )
  })

  test('the log-normal median is near its parameter', () => {
    const draw = createLengthSampler(
      { kind: 'lognormal', min: 1, max: 1_000_000, median: 800, sigma: 0.5 },
      createRandom(1),
    )
    const xs = Array.from({ length: 20_001 }, draw).sort((a, b) => a - b)
    expect(Math.abs(xs[10_000]! - 800)).toBeLessThan(20)
  })

  test('empirical draws follow the histogram bin shares', () => {
    const draw = createLengthSampler(
      { kind: 'empirical', min: 1, max: 300, histogram: { edges: [1, 101, 201, 301], counts: [1, 0, 3] } },
      createRandom(2),
    )
    const xs = Array.from({ length: 20_000 }, draw)
    expect(xs.some((x) => x >= 101 && x < 201)).toBe(false)
    expect(Math.abs(xs.filter((x) => x >= 201).length / xs.length - 0.75)).toBeLessThan(0.015)
  })

  test('invalid distributions are rejected naming the field', () => {
    expect(() => createLengthSampler({ kind: 'uniform', min: 10, max: 5 }, createRandom(1))).toThrow(/max length/)
    expect(() =>
      createLengthSampler({ kind: 'lognormal', min: 1, max: 5, median: 3, sigma: 0 }, createRandom(1)),
    ).toThrow(/sigma/)
  })
})
