/**
 * The inputs of one shard task: shard i of N of the whole input (src/input/shard-write.ts), and a nested
 * work-stratified subset of that shard (SHARD_SUBSET_SHARE of its records) measured beside it, so every shard record
 * holds runs at two sizes and the report can fit that shard's size model (fixed + per-sequence parts). Both are cached
 * by the input's hash: an array task that is requeued, or a second suite file on the node, reuses them.
 */
import { existsSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { InputIdentity } from '../../input/identity.ts'
import { MANIFEST_FILE, type SampleManifest } from '../../input/manifest.ts'
import { readManifest } from '../../input/manifest-read.ts'
import type { InputProvenance } from '../../input/resolver.ts'
import { sampleFasta } from '../../input/sample.ts'
import type { ShardSpec } from '../../input/shard.ts'
import { SHARD_FILE, type ShardManifest, writeShard } from '../../input/shard-write.ts'

/**
 * The subset's share of the shard's records: 1 in 10, the ratio of the capacity suite's default sizes (1,000 and
 * 10,000 records), whose projections were checked on H200s (docs/VALIDATION.md). A smaller share costs less and moves
 * the two sizes further apart (a projection's CI narrows with the size difference); far smaller and a subset stops
 * filling the pipeline's batches, which a line through two sizes would read as fixed cost.
 */
export const SHARD_SUBSET_SHARE = 0.1
/** Seed of the subset's nested order (nested-order.ts), fixed: every task and rerun draws the same subset. */
const SUBSET_SEED = 1

export interface ShardArmInput {
  file: string
  records: number
  work: number
  /** work / the source's work per record (the size model's unit), or the records when the source has no work. */
  sequenceEquivalents: number
}

export interface ShardInputs {
  spec: ShardSpec
  source: InputIdentity
  /** GPU work of the whole input (every shard's work together). */
  sourceWork: number
  full: ShardArmInput
  subset: ShardArmInput | null
  /** Why there is no subset (the shard is too small, or the subset has no GPU work); null when there is one. */
  subsetProblem: string | null
}

async function cachedShard(source: InputIdentity, spec: ShardSpec, dir: string): Promise<ShardManifest> {
  if (existsSync(join(dir, MANIFEST_FILE))) {
    const cached = JSON.parse(await readFile(join(dir, MANIFEST_FILE), 'utf8')) as Partial<ShardManifest>
    if (cached.kind === 'shard' && cached.shard?.index === spec.index && cached.shard.count === spec.count)
      return cached as ShardManifest
  }
  return writeShard({ from: source.files, ...spec, chunkLength: source.chunkLength }, dir)
}

async function cachedSubset(shardFile: string, records: number, chunkLength: number, dir: string) {
  if (existsSync(join(dir, MANIFEST_FILE))) return (await readManifest(dir)) as SampleManifest
  return sampleFasta(
    { from: shardFile, records, seed: SUBSET_SEED, stratifyBy: 'work', selection: 'nested', chunkLength },
    dir,
  )
}

/**
 * Writes (or reads back) the shard and its subset.
 * @throws RangeError for a shard count above the input's records; FastaFormatError / FastaReadError naming the file.
 */
export async function prepareShardInputs(
  source: InputIdentity,
  spec: ShardSpec,
  cacheDir: string,
): Promise<ShardInputs> {
  const stem = `shard-${source.sha256.slice(0, 16)}-${spec.index}of${spec.count}-L${source.chunkLength}`
  const shard = await cachedShard(source, spec, join(cacheDir, stem))
  const perRecord = source.workPerRecord
  const size = (records: number, work: number) => (perRecord > 0 ? work / perRecord : records)
  const full: ShardArmInput = {
    file: join(cacheDir, stem, SHARD_FILE),
    records: shard.file.records,
    work: shard.work,
    sequenceEquivalents: size(shard.file.records, shard.work),
  }
  const base = { spec, source, sourceWork: shard.source.work, full }
  const records = Math.round(shard.file.records * SHARD_SUBSET_SHARE)
  if (records < 1 || records >= shard.file.records)
    return { ...base, subset: null, subsetProblem: `a shard of ${shard.file.records} record(s) has no smaller subset` }
  const dir = join(cacheDir, `${stem}-subset-${records}`)
  const manifest = await cachedSubset(full.file, records, source.chunkLength, dir)
  const work = manifest.workPerRecord.sample * manifest.totals.records
  if (perRecord > 0 && !(work > 0))
    return { ...base, subset: null, subsetProblem: `its ${records}-record subset has no GPU work` }
  const subset = { file: join(dir, manifest.files[0]!.name), records, work, sequenceEquivalents: size(records, work) }
  return { ...base, subset, subsetProblem: null }
}

/** Provenance of the shard's files: subsets of the source, with their work per record against its. */
export function shardProvenance(inputs: ShardInputs, files: readonly string[]): InputProvenance | null {
  const arms = [inputs.full, ...(inputs.subset ? [inputs.subset] : [])].filter((a) => files.includes(a.file))
  if (arms.length === 0) return null
  const perRecord = inputs.source.workPerRecord
  return {
    source: inputs.source,
    used: arms.map((a) => ({
      file: a.file,
      records: a.records,
      kind: 'subset' as const,
      workRelativeDifference: perRecord > 0 ? (a.work / a.records - perRecord) / perRecord : 0,
    })),
  }
}
