/**
 * Shard suite (kind `shard`): one array task of a sharded production run. It runs the pipeline on shard i of N of the
 * input on this node's GPUs (the configuration given), and on a nested subset of that shard, interleaved (warm-ups
 * first, then the measured runs in turn: drift falls on both), and writes one record: the shard's figures (stats: the
 * shape in src/results/schema/shard-stats.ts) and PERF-02 and bottleneck verdicts of its full-shard runs. Merging
 * the shards of one run (fleet time, straggler, N nodes against 1) is the report's job (src/report/analyses/fleet-*.ts):
 * no task knows the others.
 */

import type { Configuration } from '../../engine/configuration.ts'
import type { SuiteContext } from '../../engine/context.ts'
import { journalFor } from '../../engine/journal-options.ts'
import { measureInterleaved } from '../../engine/measure-configuration.ts'
import { buildRecord, failureReason, storeSuiteRecord } from '../../engine/record.ts'
import type { InputIdentity } from '../../input/identity.ts'
import type { ShardSpec } from '../../input/shard.ts'
import { gpuModelOf } from '../../results/runs.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import type { SuiteMeasure, SuiteOutcome } from '../index.ts'
import { analyzeStageThroughput } from '../stage/stage.ts'
import { shardFigures } from './shard-figures.ts'
import { prepareShardInputs, type ShardInputs, shardProvenance } from './shard-input.ts'

export interface ShardRun {
  config: Configuration
  /** GPUs the configuration runs on (0 for a CPU stand-in). */
  gpuCount: number
  spec: ShardSpec
  /** The whole input the shards split. */
  source: InputIdentity
  /** Where the shard and its subset are written (the dataset cache). */
  cacheDir: string
}

const armLabel = (config: Configuration, spec: ShardSpec, subset: boolean) =>
  `${config.label}, shard ${spec.index}/${spec.count}${subset ? ' subset' : ''}`

const shardId = (r: ShardRun) => `shard-${r.spec.index}-of-${r.spec.count}-${r.config.label}`
const shardName = (r: ShardRun) =>
  `shard ${r.spec.index}/${r.spec.count} of ${r.source.records.toLocaleString('en-US')} seqs (${r.source.sha256.slice(0, 12)}), ${r.config.label}`

function measure(ctx: SuiteContext, m: Omit<SuiteMeasure, 'input'>, r: ShardRun, inputs: ShardInputs) {
  const arms = [
    { config: { ...r.config, label: armLabel(r.config, r.spec, false) }, input: inputs.full.file },
    ...(inputs.subset
      ? [{ config: { ...r.config, label: armLabel(r.config, r.spec, true) }, input: inputs.subset.file }]
      : []),
  ]
  const journal = journalFor(ctx, { kind: 'shard', id: shardId(r), name: shardName(r) })
  return measureInterleaved(arms, { ...m, profile: ctx.profile, workDir: ctx.workDir, journal })
}

/**
 * Prepares the shard, measures it and writes its record at once.
 * @throws what prepareShardInputs throws (a count above the input's records, a bad FASTA: before any run);
 * InvalidResultRecordError when the record does not validate. Failed runs are data: a failed record with the reason.
 */
export async function runShardSuite(
  ctx: SuiteContext,
  m: Omit<SuiteMeasure, 'input'>,
  r: ShardRun,
): Promise<SuiteOutcome> {
  const inputs = await prepareShardInputs(r.source, r.spec, r.cacheDir)
  // The shard's files are named by the shard's own provenance, in the record and in the journal alike.
  const shardCtx = {
    ...ctx,
    inputs: {
      user: ctx.inputs?.user ?? null,
      provenanceOf: (files: readonly string[]) => shardProvenance(inputs, files),
    },
  }
  const [full, subset] = await measure(shardCtx, m, r, inputs)
  const measurements = [full!, ...(subset ? [subset] : [])]
  const analysis = analyzeStageThroughput(full!, ctx.thresholds)
  const reason = failureReason(measurements)
  const record: ResultRecord = await buildRecord(shardCtx, {
    kind: 'shard',
    id: shardId(r),
    name: shardName(r),
    measurements,
    stats: {},
    verdicts: analysis.verdicts,
    ...(reason ? { state: 'failed' as const, reason } : {}),
  })
  record.stats = {
    ...shardFigures(inputs, r.config.label, full!, subset ?? null, r.gpuCount, ctx.thresholds),
    host: record.provenance.host.hostname,
    gpuModel: gpuModelOf(record.provenance),
  }
  return storeSuiteRecord(ctx, record)
}
