// The `shard` result kind: a completed shard record's stats are held to their schema when a record is read or written.
import { readFile } from 'node:fs/promises'
import { fileURLToPath } from 'node:url'
import { describe, expect, test } from 'vitest'
import { RESULT_KINDS, ShardStatsSchema } from '../../src/results/schema/index.ts'
import { parseResultRecord, storeResultRecord } from '../../src/results/store.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const FILE = fileURLToPath(
  new URL(
    '../fixtures/fleet/results/2026-03-05T09-00-00Z-5a4d/shard-1-of-4-cpu-tiny-shard-node-1.json',
    import.meta.url,
  ),
)
const text = await readFile(FILE, 'utf8')
const parse = (record: unknown) => parseResultRecord(JSON.stringify(record), 'r.json')

describe('shard records', () => {
  test("'shard' is a result kind, and a real shard record (CPU stand-in) reads back valid", () => {
    expect(RESULT_KINDS).toContain('shard')
    const parsed = parseResultRecord(text, FILE)
    expect(parsed).toHaveProperty('record')
    const stats = ShardStatsSchema.parse((parsed as { record: { stats: unknown } }).record.stats)
    expect(stats.shard).toEqual({ index: 1, count: 4 })
    expect(stats.full.records).toBe(20)
  })

  test('a completed shard record with stats of another shape is invalid, naming the field', () => {
    const record = JSON.parse(text)
    delete record.stats.shard
    expect(parse(record)).toEqual({
      invalid: { file: 'r.json', reason: expect.stringMatching(/^not a valid result record: stats\.shard: /) },
    })
    const outOfRange = JSON.parse(text)
    outOfRange.stats.shard = { index: 4, count: 4 }
    expect(parse(outOfRange)).toEqual({
      invalid: {
        file: 'r.json',
        reason: 'not a valid result record: stats.shard: shard index must be below the count',
      },
    })
  })

  test('a failed shard record need not hold figures (it may have failed before measuring)', () => {
    const record = { ...JSON.parse(text), state: 'failed', reason: 'shard 1/4 run 1 ended as failed', stats: {} }
    expect(parse(record)).toHaveProperty('record')
  })

  test('the store refuses to write a completed shard record without its figures', async () => {
    const record = { ...JSON.parse(text), stats: { shard: { index: 0, count: 2 } } }
    await expect(storeResultRecord(tempDirUntilFileEnd('shard-store-'), record)).rejects.toThrow(
      /result record 'shard-1-of-4-cpu-tiny-shard-node-1': stats\.\w+/,
    )
  })
})
