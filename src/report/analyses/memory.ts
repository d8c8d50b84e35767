/** Memory: peak device memory per requested GPU for every run group, as a share of the device's capacity. */

import { type CountedRun, gpuCountOf, type RunGroup, runGroups } from '../../results/runs.ts'
import type { ResultRecord } from '../../results/schema/index.ts'

export interface MemoryRow {
  /** The first record holding these runs. */
  recordId: string
  /** Every record holding these same runs (runs.ts runGroups). */
  recordIds: string[]
  group: string
  gpuCount: number
  gpu: number
  runs: number
  /** Largest peak over the group's runs. */
  peakMemUsedBytes: number
  memTotalBytes: number | null
  share: number | null
  limitShare: number
  verdict: 'pass' | 'fail' | 'inconclusive'
}

export interface MemoryReport {
  rows: MemoryRow[]
}

function rowsOf({ runs, record, recordIds }: RunGroup): MemoryRow[] {
  const first = runs[0] as CountedRun
  const peaks = new Map<number, { peak: number; total: number | null; runs: number }>()
  for (const { measured } of runs) {
    for (const g of measured.gpu?.gpus ?? []) {
      if (!g.requested || g.peakMemUsedBytes === null) continue
      const seen = peaks.get(g.gpu) ?? { peak: 0, total: g.device?.memTotalBytes ?? null, runs: 0 }
      peaks.set(g.gpu, { peak: Math.max(seen.peak, g.peakMemUsedBytes), total: seen.total, runs: seen.runs + 1 })
    }
  }
  const limitShare = record.thresholds.memory.maxPeakShareOfCapacity
  return [...peaks].map(([gpu, p]) => {
    const share = p.total ? p.peak / p.total : null
    const verdict =
      share === null ? ('inconclusive' as const) : share <= limitShare ? ('pass' as const) : ('fail' as const)
    return {
      recordId: record.id,
      recordIds,
      group: first.group,
      gpuCount: gpuCountOf(first.measured),
      gpu,
      runs: p.runs,
      peakMemUsedBytes: p.peak,
      memTotalBytes: p.total,
      share,
      limitShare,
      verdict,
    }
  })
}

/**
 * Pure: every counted run with a monitor summary, one row per (group, requested GPU).
 * @param groups the records' run groups, when the caller has them already (buildReport shares one grouping).
 */
export function analyzeMemory(
  records: readonly ResultRecord[],
  groups: readonly RunGroup[] = runGroups(records),
): MemoryReport {
  return { rows: groups.flatMap(rowsOf) }
}
