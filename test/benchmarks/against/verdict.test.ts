// The verdict under `--against REV` (benchmarks/support/against/verdict.ts): this checkout's subject against REV's in
// the same pairs.
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { formatRevisionVerdict, judgeAgainstRevision } from '../../../benchmarks/support/against/verdict.ts'
import { MIN_EFFECT } from '../../../benchmarks/support/baseline/verdict.ts'
import { createRandomSource } from '../../../src/measure/rng.ts'

/** `n` pairs of the same work, each pair's two costs moved alike by the moment and apart by `noise` each. */
function pairs(n: number, seed: number, noise: number, slowdown: number): [number[], number[]] {
  const random = createRandomSource(seed)
  const these: number[] = []
  const other: number[] = []
  for (let i = 0; i < n; i++) {
    const moment = 100 * (1 + 2 * random())
    these.push(moment * (1 + noise * (random() - 0.5)) * slowdown)
    other.push(moment * (1 + noise * (random() - 0.5)))
  }
  return [these, other]
}

describe('judgeAgainstRevision', () => {
  test('the same code on both sides passes, whatever the moment did to each pair (each cost +-5% apart)', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 60 }),
        fc.integer(),
        fc.double({ min: 0, max: 0.1, noNaN: true }),
        (n, seed, noise) => {
          expect(judgeAgainstRevision(...pairs(n, seed, noise, 1)).verdict).toBe('pass')
        },
      ),
    )
  })

  test('a subject 30% slower than the other revision fails from 3 pairs on', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 3, max: 60 }),
        fc.integer(),
        fc.double({ min: 0, max: 0.1, noNaN: true }),
        (n, seed, noise) => {
          const v = judgeAgainstRevision(...pairs(n, seed, noise, 1.3))
          expect(v.verdict).toBe('fail')
          expect(v.low).toBeGreaterThan(1)
        },
      ),
    )
  })

  test('one pair cannot fail it: its interval needs two pairs; nor can one slow pair among three', () => {
    expect(judgeAgainstRevision([300], [100])).toMatchObject({ verdict: 'pass', ratio: 3, low: null, pairs: 1 })
    expect(judgeAgainstRevision([300, 101, 99], [100, 100, 100])).toMatchObject({ verdict: 'pass' })
    expect(judgeAgainstRevision([300, 130, 129], [100, 100, 100])).toMatchObject({ verdict: 'fail', ratio: 1.3 })
  })

  test(`a slowdown under MIN_EFFECT (${MIN_EFFECT * 100}%) passes even when every pair shows it`, () => {
    expect(judgeAgainstRevision([110, 111, 109, 110, 110], [100, 100, 100, 100, 100]).verdict).toBe('pass')
  })

  test('it reads as one line', () => {
    const v = judgeAgainstRevision([130, 131, 129, 132, 128], [100, 100, 100, 100, 100])
    expect(formatRevisionVerdict(v, 'abc1234 (main)')).toBe(
      '1.30x the cost of abc1234 (main) (94% CI 1.28-1.32, 5 pairs), limit 1.15x: FAIL, slower than abc1234 (main)',
    )
  })
})
