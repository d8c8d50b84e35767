/**
 * The fleet: records of many hosts and runs read as one (a results root, or several directories: src/report/load.ts).
 * Per host its PERF-01/02/03 verdicts and projected production time; per measurement that several hosts ran, each
 * host's and each GPU model's seq/s, tok/s and J/seq, and which hosts are bad nodes (fleet-hosts.ts); per sharded run
 * the merged shards (fleet-shards.ts). Null when there is nothing of a fleet: one directory, one host, no shard. Pure.
 */
import type { ResultRecord } from '../../results/schema/index.ts'
import type { SourceDir } from '../input.ts'
import { type HostSummary, summarizeHosts } from './fleet-host-summary.ts'
import { compareHosts, type HostComparison } from './fleet-hosts.ts'
import { hostOf, measuredGroups, shardStatsOf } from './fleet-runs.ts'
import { analyzeShards, type ShardRunReport } from './fleet-shards.ts'

export interface FleetReport {
  /** The directories read (a merged report); empty for one run directory. */
  sources: SourceDir[]
  hosts: HostSummary[]
  comparison: HostComparison
  shardRuns: ShardRunReport[]
  notes: string[]
}

export function analyzeFleet(records: readonly ResultRecord[], sources: readonly SourceDir[] = []): FleetReport | null {
  const hostCount = new Set(records.map(hostOf)).size
  const shardRecords = records.filter((r) => r.kind === 'shard')
  if (sources.length <= 1 && hostCount <= 1 && shardRecords.length === 0) return null
  const comparison = compareHosts(measuredGroups(records))
  const shards = analyzeShards(records)
  const notes = shardRecords
    .filter((r) => !shardStatsOf(r))
    .map(
      (r) =>
        `shard record ${r.id} (${r.state}${r.reason ? `: ${r.reason}` : ''}) holds no shard figures: left out of its run`,
    )
  if (comparison.singleHost.length > 0)
    notes.push(
      `${comparison.singleHost.length} measurement(s) ran on one host only, nothing to compare them with: ${comparison.singleHost.slice(0, 5).join('; ')}${comparison.singleHost.length > 5 ? '; ...' : ''}`,
    )
  return {
    sources: [...sources],
    hosts: summarizeHosts(records, comparison, shards.alone),
    comparison,
    shardRuns: shards.runs,
    notes,
  }
}
