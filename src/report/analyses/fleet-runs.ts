/**
 * What the fleet comparison reads of each record: which host and GPU model ran it, and its counted runs grouped into
 * measurements that can be compared across hosts (the same setup on the same input), each run's throughput. Pure.
 *
 * A measurement is a setup (the runs' `config.setup`) on one input (its sequences, and the source's hash where the
 * record names its input): the scaling suite's 1-GPU arm and the stage suite share runs through the run cache and are
 * one measurement here, read once. A shard record's full-shard runs are one measurement for all shards of its run
 * (`<configuration>, shards of N`): the shards carry equal work, so their rates compare like any other hosts'.
 */

import type { Figure } from '../../capacity/table.ts'
import { medianWithCi, toSorted } from '../../measure/index.ts'
import { type CountedRun, gpuModelOf, runGroups } from '../../results/runs.ts'
import { type ResultRecord, type ShardStats, ShardStatsSchema } from '../../results/schema/index.ts'
import { type RunThroughput, runThroughput } from '../../suites/shard/shard-run-figures.ts'

export interface MeasuredGroup {
  /** Human key: setup and input, the same on every host that ran it. */
  measurement: string
  host: string
  gpuModel: string
  recordIds: string[]
  /** The first record holding the runs: its thresholds judge them. */
  record: ResultRecord
  runs: RunThroughput[]
}

/** The host a record ran on (its provenance). */
export const hostOf = (r: ResultRecord) => r.provenance.host.hostname

/** A shard record's stats, or null when they are not the shard shape (a record that failed before measuring). */
export function shardStatsOf(r: ResultRecord): ShardStats | null {
  if (r.kind !== 'shard') return null
  const parsed = ShardStatsSchema.safeParse(r.stats)
  return parsed.success ? parsed.data : null
}

/** Median with its CI (order statistic up to 30 runs) of the finite values; null for none. */
export function figureOfValues(values: readonly (number | null)[], what: string): Figure | null {
  const present = values.filter((v): v is number => v !== null && Number.isFinite(v))
  if (present.length === 0) return null
  const e = medianWithCi(toSorted(present, what))
  return { value: e.median, ci: e.ci ? { low: e.ci.low, high: e.ci.high } : null }
}

const inputOf = (r: ResultRecord) => r.provenance.input?.source.sha256.slice(0, 12) ?? null

function measurementOf(record: ResultRecord, group: string, runs: readonly RunThroughput[]): string | null {
  const shard = shardStatsOf(record)
  if (shard) {
    if (group !== shard.full.setup) return null
    return `${shard.configuration}, shards of ${shard.shard.count} (${shard.source.sha256.slice(0, 12)})`
  }
  const sequences = runs.find((r) => r.sequences !== null)?.sequences
  const input = inputOf(record)
  const seqs = sequences == null ? null : `${sequences.toLocaleString('en-US')} seqs`
  // Setups named by their size already (the capacity suite's `1 GPU, 10,000 seqs`) keep their own name.
  const size = seqs === null || group.includes(seqs) ? '' : `, ${seqs}`
  return `${group}${size}${input ? ` (${input})` : ''}`
}

/** Every record's counted runs as measured groups (subset arms of shard records left out: another size). */
export function measuredGroups(records: readonly ResultRecord[]): MeasuredGroup[] {
  const out: MeasuredGroup[] = []
  for (const g of runGroups(records)) {
    const stages = g.record.thresholds.perf02.stages
    const runs = g.runs.flatMap((r: CountedRun) => runThroughput(r.measured, stages) ?? [])
    if (runs.length === 0) continue
    const measurement = measurementOf(g.record, g.runs[0]!.group, runs)
    if (measurement === null) continue
    out.push({
      measurement,
      host: hostOf(g.record),
      gpuModel: gpuModelOf(g.record.provenance),
      recordIds: g.recordIds,
      record: g.record,
      runs,
    })
  }
  return out
}
