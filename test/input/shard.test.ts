import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { assignShards, selectShard, validateShardCount } from '../../src/input/shard.ts'

/** Work as record-work.ts counts it (integers >= 0, many records with none) and lengths, for 1-300 records. */
const inputs = fc.integer({ min: 1, max: 300 }).chain((n) =>
  fc.record({
    work: fc.array(fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 50_000 })), { minLength: n, maxLength: n }),
    lengths: fc.array(fc.integer({ min: 1, max: 60_000 }), { minLength: n, maxLength: n }),
  }),
)
const withCount = inputs.chain((keys) =>
  fc.record({ keys: fc.constant(keys), count: fc.integer({ min: 1, max: keys.work.length }) }),
)

/**
 * The balance bound, computed independently of the dealer: records sorted by work (heaviest first) in rounds of
 * `count`; the shards' work differs by at most the widest spread within a full round, or the heaviest record of the
 * last, partial round.
 */
function workBound(work: readonly number[], count: number): number {
  const sorted = [...work].sort((a, b) => b - a)
  let bound = 0
  for (let start = 0; start < sorted.length; start += count) {
    const round = sorted.slice(start, start + count)
    bound = Math.max(bound, round.length === count ? round[0]! - round.at(-1)! : round[0]!)
  }
  return bound
}

const sums = (keys: { work: number[] }, shardOf: Uint32Array, count: number) => {
  const work = new Array<number>(count).fill(0)
  const records = new Array<number>(count).fill(0)
  shardOf.forEach((s, i) => {
    work[s]! += keys.work[i]!
    records[s]!++
  })
  return { work, records }
}

describe('assignShards', () => {
  test('the shards partition the input exactly: every record in one shard, every shard non-empty', () => {
    fc.assert(
      fc.property(withCount, ({ keys, count }) => {
        const shardOf = assignShards(keys, count)
        expect(shardOf).toHaveLength(keys.work.length)
        const flags = Array.from({ length: count }, (_, index) => selectShard(keys, { index, count }))
        for (let r = 0; r < keys.work.length; r++) {
          expect(flags.filter((f) => f[r] === 1)).toHaveLength(1)
          expect(flags[shardOf[r]!]![r]).toBe(1)
        }
        expect(sums(keys, shardOf, count).records.every((n) => n > 0)).toBe(true)
      }),
    )
  })

  test('record counts differ by at most one, and work by at most the bound of its rounds', () => {
    fc.assert(
      fc.property(withCount, ({ keys, count }) => {
        const { work, records } = sums(keys, assignShards(keys, count), count)
        expect(Math.max(...records) - Math.min(...records)).toBeLessThanOrEqual(1)
        expect(Math.max(...work) - Math.min(...work)).toBeLessThanOrEqual(workBound(keys.work, count))
      }),
    )
  })

  test('on many similar records the work is near equal: within 1% of a shard at 2,000 records in 8 shards', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1_000, max: 3_000 }), { minLength: 2_000, maxLength: 2_000 }), (work) => {
        const keys = { work, lengths: work.map(() => 1_000) }
        const totals = sums(keys, assignShards(keys, 8), 8).work
        const mean = totals.reduce((a, w) => a + w, 0) / 8
        expect((Math.max(...totals) - Math.min(...totals)) / mean).toBeLessThan(0.01)
      }),
      { numRuns: 20 },
    )
  })

  test('deterministic: the same input and count give the same shards, on any node, without a seed', () => {
    fc.assert(
      fc.property(withCount, ({ keys, count }) => {
        expect(assignShards(keys, count)).toEqual(
          assignShards({ work: [...keys.work], lengths: [...keys.lengths] }, count),
        )
      }),
    )
  })

  test('a bad count or index is refused with the allowed range', () => {
    const keys = { work: [1, 2, 3], lengths: [10, 20, 30] }
    expect(() => assignShards(keys, 4)).toThrow(
      "shard count must be an integer in [1, 3] (the input's record count), got 4",
    )
    expect(() => assignShards(keys, 0)).toThrow(/got 0/)
    expect(() => validateShardCount(1.5, 3)).toThrow(/got 1.5/)
    expect(() => selectShard(keys, { index: 3, count: 3 })).toThrow('shard index must be an integer in [0, 2], got 3')
    expect(() => assignShards({ work: [1], lengths: [] }, 1)).toThrow(/1 work values but 0 lengths/)
  })
})
