import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { parseShardSpec, ShardSettingsError, shardFromEnv } from '../../src/engine/shard-settings.ts'

describe('VIRNUCPRO_BENCH_SHARD', () => {
  test('<index>/<count> with 0 <= index < count reads back as given', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 100_000 }).chain((count) => fc.tuple(fc.nat(count - 1), fc.constant(count))),
        ([index, count]) => {
          expect(shardFromEnv({ VIRNUCPRO_BENCH_SHARD: `${index}/${count}` })).toEqual({ index, count })
          expect(parseShardSpec(` ${index}/${count}\n`)).toEqual({ index, count })
        },
      ),
    )
  })

  test('unset or empty: no shard (this is no array task)', () => {
    expect(shardFromEnv({})).toBeNull()
    expect(shardFromEnv({ VIRNUCPRO_BENCH_SHARD: '  ' })).toBeNull()
  })

  test('any other value is one line naming the value and the form expected', () => {
    const bad = fc.oneof(
      fc.string().filter((s) => !/^\s*\d+\/\d+\s*$/.test(s) && s.trim() !== ''),
      fc.integer({ min: 0, max: 1000 }).map((n) => `${n + 1}/${n + 1}`),
      fc.integer({ min: 0, max: 1000 }).map((n) => `${n}/0`),
      fc.constantFrom('1/4/2', '-1/4', '1.5/4', '1 / 4x', '3of4', '0x1/2'),
    )
    fc.assert(
      fc.property(bad, (raw) => {
        let error: unknown
        try {
          shardFromEnv({ VIRNUCPRO_BENCH_SHARD: raw })
        } catch (e) {
          error = e
        }
        expect(error).toBeInstanceOf(ShardSettingsError)
        const message = (error as Error).message
        expect(message).toBe(
          `VIRNUCPRO_BENCH_SHARD must be <index>/<count>, a 0-based index below the count (e.g. 0/8 for the first of 8 shards), got '${raw}'`,
        )
      }),
    )
  })
})
