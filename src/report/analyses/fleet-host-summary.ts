/**
 * One line per host (and GPU model): how its records judged PERF-01, PERF-02 and PERF-03 (the worst verdict and the
 * count of each), its projected time at the production size where a size model exists (a capacity record's, per
 * configuration; a shard record's, this node alone on the whole production input), and the measurements it was a bad
 * node on. Every verdict and projection is the records' own or the shard analysis's; nothing is judged again. Pure.
 */

import { analyzeCapacityRecords } from '../../capacity/report-analysis.ts'
import type { Figure } from '../../capacity/table.ts'
import { gpuModelOf } from '../../results/runs.ts'
import type { ResultRecord, VerdictValue } from '../../results/schema/index.ts'
import type { HostComparison } from './fleet-hosts.ts'
import { hostOf } from './fleet-runs.ts'
import { worstVerdict } from './suites.ts'

export interface PerfSummary {
  worst: VerdictValue
  counts: Partial<Record<VerdictValue, number>>
}

export interface HostProjection {
  recordId: string
  /**
   * The configuration (capacity), or `<configuration>, shard i/N's node alone` (that node on the whole input, from
   * its shard's size model): a host can hold several shard records, and each needs telling apart.
   */
  label: string
  sequences: number
  wallMs: Figure | null
  perf01: VerdictValue | null
}

export interface HostSummary {
  host: string
  gpuModel: string
  records: number
  failed: number
  perf01: PerfSummary | null
  perf02: PerfSummary | null
  perf03: PerfSummary | null
  projections: HostProjection[]
  /** Measurements on which it was flagged slower than the hosts of its GPU model. */
  badNodeIn: string[]
}

/** What the shard analysis projects for one shard record's node alone (fleet-shards.ts). */
export interface ShardProjection {
  recordId: string
  configuration: string
  /** `<index>/<count>`: which shard of which split the record ran. */
  shard: string
  sequences: number
  wallMs: Figure | null
  perf01: VerdictValue | null
}

const PERF = { perf01: /(^|\/)perf01(\/|$)/, perf02: /(^|\/)perf02(\/|$)/, perf03: /(^|\/)perf03(\/|$)/ } as const

function perfOf(records: readonly ResultRecord[], pattern: RegExp): PerfSummary | null {
  // A partial record's verdicts are provisional: never counted into a host's judgement.
  const verdicts = records.flatMap((r) => (r.state === 'partial' ? [] : r.verdicts.filter((v) => pattern.test(v.id))))
  const worst = worstVerdict(verdicts)
  if (!worst) return null
  const counts: PerfSummary['counts'] = {}
  for (const v of verdicts) counts[v.verdict] = (counts[v.verdict] ?? 0) + 1
  return { worst: worst.verdict, counts }
}

function capacityProjections(records: readonly ResultRecord[]): HostProjection[] {
  return analyzeCapacityRecords(records).entries.flatMap((entry) => {
    const at = entry.columns.findIndex((c) => c.role === 'production')
    // A known answer's projection is a planted fault's or a check's, never what the host would take.
    if (at < 0 || entry.knownAnswer) return []
    return entry.configurations.map((c) => ({
      recordId: entry.recordId,
      label: c.label,
      sequences: entry.columns[at]!.sequences,
      wallMs: c.cells[at]?.wallMs ?? null,
      perf01: c.cells[at]?.perf01 ?? null,
    }))
  })
}

/** One summary per host and GPU model, in first-seen order. */
export function summarizeHosts(
  records: readonly ResultRecord[],
  compared: HostComparison,
  shardProjections: readonly ShardProjection[],
): HostSummary[] {
  const byHost = new Map<string, ResultRecord[]>()
  for (const r of records) {
    const key = `${hostOf(r)}\u0000${gpuModelOf(r.provenance)}`
    byHost.set(key, [...(byHost.get(key) ?? []), r])
  }
  return [...byHost.values()].map((list) => {
    const host = hostOf(list[0]!)
    const gpuModel = gpuModelOf(list[0]!.provenance)
    const ids = new Set(list.map((r) => r.id))
    return {
      host,
      gpuModel,
      records: list.length,
      failed: list.filter((r) => r.state === 'failed').length,
      perf01: perfOf(list, PERF.perf01),
      perf02: perfOf(list, PERF.perf02),
      perf03: perfOf(list, PERF.perf03),
      projections: [
        ...capacityProjections(list),
        ...shardProjections
          .filter((p) => ids.has(p.recordId))
          .map(({ configuration, shard, ...p }) => ({ ...p, label: `${configuration}, shard ${shard}'s node alone` })),
      ],
      badNodeIn: compared.hosts
        .filter((h) => h.host === host && h.gpuModel === gpuModel && h.badNode.direction === 'slower')
        .map((h) => h.measurement),
    }
  })
}
