/**
 * Sharded runs: the shard records of one run (run ID, input, shard count, configuration) merged into one answer: each
 * shard's host, size and time; which shards are missing or failed (then the fleet's time is not measured, and every
 * comparison that needs it says so); the fleet's time, throughput and J/seq; the straggler (the slowest shard against
 * the median shard, its host and the stage that made it slow, with the balance rule of the thresholds); N nodes against
 * 1 (fleet-shard-compare.ts); the production size on the fleet. A 0/1 record of the same input and configuration is
 * the one-node measurement of every N-shard run it matches; one that matches none is a run of its own. Pure.
 */

import type { Figure } from '../../capacity/table.ts'
import type { Thresholds } from '../../config/thresholds.ts'
import { workerBalance } from '../../measure/index.ts'
import { gpuModelOf, groupBy, medianOf } from '../../results/runs.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import type { ShardProjection } from './fleet-host-summary.ts'
import { figureOfValues, hostOf, shardStatsOf } from './fleet-runs.ts'
import {
  compareWithOneNode,
  type FleetFigures,
  fleetFigures,
  type NodeComparison,
  type ProductionFigure,
  productionAlone,
  productionOnFleet,
} from './fleet-shard-compare.ts'
import { measureShard, type ShardMeasured } from './fleet-shard-models.ts'

export interface ShardRow {
  index: number
  recordId: string
  host: string
  gpuModel: string
  state: ResultRecord['state']
  reason: string | null
  records: number
  sequenceEquivalents: number
  runs: number
  wallMs: Figure | null
  sequencesPerS: Figure | null
  /** Why its size model is missing or has no CI; null when it has both. */
  modelProblem: string | null
}

export interface Straggler {
  index: number
  host: string
  gpuModel: string
  wallMs: number
  /** The median of the shards' median wall times. */
  medianShardMs: number
  /** wallMs / medianShardMs. */
  ratio: number
  /** The stage (or the time outside every stage) the straggler spent most beyond the other shards' median. */
  stage: { name: string; excessMs: number } | null
  balance: { spread: number; maxSpread: number; verdict: 'pass' | 'flag' | 'inconclusive'; reason: string }
}

export interface ShardRunReport {
  runId: string
  configuration: string
  input: { path: string; sha256: string; records: number }
  count: number
  shards: ShardRow[]
  /** Indices with no record at all. */
  missing: number[]
  /** Older records of a shard index that a newer one replaced (a requeued task). */
  replaced: string[]
  /** Why the fleet's time is not measured; null when every shard completed. */
  incomplete: string | null
  fleet: FleetFigures | null
  straggler: Straggler | null
  vsOneNode: NodeComparison
  /** Beside a measured one node: the same comparison projected from the shards' own models, as a check of both. */
  vsOneNodeProjected: NodeComparison | null
  production: ProductionFigure | null
}

export interface ShardAnalysis {
  runs: ShardRunReport[]
  /** Each shard's node alone on the production size (for the host summary). */
  alone: ShardProjection[]
}

const OUTSIDE_STAGES = 'outside stages'

function row(s: ShardMeasured): ShardRow {
  const { record, stats } = s
  return {
    index: stats.shard.index,
    recordId: record.id,
    host: hostOf(record),
    gpuModel: gpuModelOf(record.provenance),
    state: record.state,
    reason: record.reason,
    records: stats.full.records,
    sequenceEquivalents: stats.full.sequenceEquivalents,
    runs: s.full.length,
    wallMs: figureOfValues(
      s.full.map((r) => r.wallMs),
      'shard wall',
    ),
    sequencesPerS: stats.sequencesPerS && { value: stats.sequencesPerS.median, ci: stats.sequencesPerS.ci },
    modelProblem: s.modelProblem,
  }
}

/** Per stage, and outside every stage: the median over a shard's runs. */
function stageMedians(s: ShardMeasured): Map<string, number> {
  const names = new Set(s.full.flatMap((r) => Object.keys(r.stagesMs)))
  const out = new Map<string, number>()
  for (const name of names) out.set(name, medianOf(s.full.flatMap((r) => r.stagesMs[name] ?? [])) ?? 0)
  const outside = s.full.map((r) => r.wallMs - Object.values(r.stagesMs).reduce((a, ms) => a + ms, 0))
  out.set(OUTSIDE_STAGES, Math.max(0, medianOf(outside) ?? 0))
  return out
}

function stragglerOf(shards: readonly ShardMeasured[], t: Thresholds): Straggler | null {
  const timed = shards.filter((s) => s.full.length > 0)
  if (timed.length < 2) return null
  const medians = timed.map((s) => medianOf(s.full.map((r) => r.wallMs))!)
  const at = medians.indexOf(Math.max(...medians))
  const slow = timed[at]!
  const others = timed.filter((_, i) => i !== at).map(stageMedians)
  let stage: Straggler['stage'] = null
  for (const [name, ms] of stageMedians(slow)) {
    const excessMs = ms - (medianOf(others.map((o) => o.get(name) ?? 0)) ?? 0)
    if (excessMs > (stage?.excessMs ?? 0)) stage = { name, excessMs }
  }
  const balance = workerBalance(
    timed.map((s) => ({ worker: `shard ${s.stats.shard.index}`, durationsMs: s.full.map((r) => r.wallMs) })),
    t.balance.maxSpread,
  )
  const medianShardMs = medianOf(medians)!
  return {
    index: slow.stats.shard.index,
    host: hostOf(slow.record),
    gpuModel: gpuModelOf(slow.record.provenance),
    wallMs: medians[at]!,
    medianShardMs,
    ratio: medians[at]! / medianShardMs,
    stage,
    balance: { spread: balance.spread, maxSpread: balance.maxSpread, verdict: balance.verdict, reason: balance.reason },
  }
}

/** The newest record of each shard index; the older ones are replaced (a requeued task's retry). */
function latestByIndex(shards: readonly ShardMeasured[]) {
  const byIndex = groupBy(shards, (s) => String(s.stats.shard.index))
  const kept: ShardMeasured[] = []
  const replaced: string[] = []
  for (const list of byIndex.values()) {
    const sorted = [...list].sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt))
    kept.push(sorted[0]!)
    replaced.push(...sorted.slice(1).map((s) => s.record.id))
  }
  return { kept: kept.sort((a, b) => a.stats.shard.index - b.stats.shard.index), replaced }
}

function runReport(list: readonly ShardMeasured[], oneNode: ShardMeasured | null): ShardRunReport {
  const { kept, replaced } = latestByIndex(list)
  const first = kept[0]!
  const { count } = first.stats.shard
  const t = first.record.thresholds
  const missing = Array.from({ length: count }, (_, i) => i).filter((i) => !kept.some((s) => s.stats.shard.index === i))
  const failed = kept.filter((s) => s.record.state !== 'completed' || s.full.length === 0)
  const problems = [
    ...(missing.length ? [`shard(s) ${missing.join(', ')} of ${count} have no record`] : []),
    ...failed.map(
      (s) => `shard ${s.stats.shard.index} ${s.record.state}${s.record.reason ? `: ${s.record.reason}` : ''}`,
    ),
  ]
  const incomplete = problems.length ? problems.join('; ') : null
  const sequences = kept.reduce((a, s) => a + (s.stats.sequences ?? s.stats.full.records), 0)
  return {
    runId: first.record.provenance.runId,
    configuration: first.stats.configuration,
    input: { path: first.stats.source.path, sha256: first.stats.source.sha256, records: first.stats.source.records },
    count,
    shards: kept.map(row),
    missing,
    replaced,
    incomplete,
    fleet: incomplete ? null : fleetFigures(kept, sequences),
    straggler: stragglerOf(kept, t),
    vsOneNode:
      count === 1
        ? { state: 'no-verdict', reason: 'no verdict: one shard, the whole input on one node: nothing to compare' }
        : compareWithOneNode(kept, oneNode, t, incomplete),
    vsOneNodeProjected: count > 1 && oneNode ? compareWithOneNode(kept, null, t, incomplete) : null,
    production: incomplete ? null : productionOnFleet(kept, t),
  }
}

/** Pure: every shard record in, one report per sharded run (and each shard's node alone at the production size). */
export function analyzeShards(records: readonly ResultRecord[]): ShardAnalysis {
  const measured = records.flatMap((r) => {
    const stats = shardStatsOf(r)
    return stats ? [measureShard(r, stats)] : []
  })
  const key = (s: ShardMeasured) => `${s.stats.source.sha256}\u0000${s.stats.configuration}`
  const runKey = (s: ShardMeasured) => `${s.record.provenance.runId}\u0000${key(s)}\u0000${s.stats.shard.count}`
  const singles = measured.filter((s) => s.stats.shard.count === 1 && s.record.state === 'completed')
  const used = new Set<ShardMeasured>()
  const runs: ShardRunReport[] = []
  for (const list of groupBy(measured, runKey).values()) {
    if (list[0]!.stats.shard.count === 1) continue
    // The one-node run of the same input and configuration: the same run ID first, else the newest of any run.
    const candidates = singles.filter((s) => key(s) === key(list[0]!))
    const oneNode =
      candidates.find((s) => s.record.provenance.runId === list[0]!.record.provenance.runId) ??
      [...candidates].sort((a, b) => b.record.createdAt.localeCompare(a.record.createdAt))[0] ??
      null
    if (oneNode) used.add(oneNode)
    runs.push(runReport(list, oneNode))
  }
  for (const list of groupBy(measured, runKey).values())
    if (list[0]!.stats.shard.count === 1 && !list.some((s) => used.has(s))) runs.push(runReport(list, null))
  const alone = measured.flatMap((s) => {
    const p = productionAlone(s, s.record.thresholds)
    const shard = `${s.stats.shard.index}/${s.stats.shard.count}`
    return p ? [{ recordId: s.record.id, configuration: s.stats.configuration, shard, ...p }] : []
  })
  return { runs, alone }
}
