/**
 * VIRNUCPRO_BENCH_SHARD=<index>/<count>: which shard of the input this array task runs (0-based index), as the
 * scheduler renders it per task (Slurm: the array task ID and the array size). Unset: this is no array task.
 */
import type { ShardSpec } from '../input/shard.ts'

export const SHARD_ENV = 'VIRNUCPRO_BENCH_SHARD'

export class ShardSettingsError extends Error {
  override name = 'ShardSettingsError'
}

const FORM = /^(\d+)\/(\d+)$/

/**
 * `<index>/<count>`, 0 <= index < count, both integers.
 * @throws ShardSettingsError, one line naming the variable, the value and the form expected.
 */
export function parseShardSpec(raw: string, name = SHARD_ENV): ShardSpec {
  const match = FORM.exec(raw.trim())
  const index = Number(match?.[1])
  const count = Number(match?.[2])
  if (!match || !Number.isSafeInteger(index) || !Number.isSafeInteger(count) || count < 1 || index >= count)
    throw new ShardSettingsError(
      `${name} must be <index>/<count>, a 0-based index below the count (e.g. 0/8 for the first of 8 shards), got '${raw}'`,
    )
  return { index, count }
}

/** The shard this task runs, or null when VIRNUCPRO_BENCH_SHARD is unset or empty. @throws ShardSettingsError */
export function shardFromEnv(env: NodeJS.ProcessEnv = process.env): ShardSpec | null {
  const raw = env[SHARD_ENV]
  return raw === undefined || raw.trim() === '' ? null : parseShardSpec(raw)
}
