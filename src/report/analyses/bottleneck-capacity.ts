/**
 * A GPU stage's split into fixed cost and steady state, for the bottleneck report: from the group's own runs the
 * start-up (the monitor's time before the GPU's first work) and the rest, with the utilization after onset; and, where a
 * capacity record fitted the same configuration, the stage's size model (fixed part + per-sequence part).
 */

import type { CapacityStats } from '../../capacity/index.ts'
import { type Figure, figureOf } from '../../capacity/table.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import type { StageEvidence } from './bottleneck-rules.ts'

export interface StageSizeModel {
  /** The capacity record and configuration the parts come from. */
  recordId: string
  configuration: string
  fixedMs: Figure | null
  msPerSequence: Figure | null
}

/** Fixed cost and steady state of one GPU stage of one run group; every field null for other stages. */
export interface StageSplit {
  /** Median over the runs of the slowest GPU's time before its first work, ms (fixed cost, start-up). */
  startupMs: number | null
  /** The stage's mean time minus its start-up, ms (steady state). */
  steadyMs: number | null
  /** Utilization after the GPU's first work, median over the runs; null where the monitor did not keep it. */
  steadyUtilPct: number | null
  sizeModel: StageSizeModel | null
}

export type SizeModelLookup = (group: string, gpuCount: number, stage: string) => StageSizeModel | null

/**
 * The stage size models of every capacity record, found by a group's configuration: the capacity configuration's
 * label is the group's (`1 GPU`) or its head before the size (`1 GPU, 10,000 seqs`: the capacity record's own runs),
 * and its GPU count is the group's. The first capacity record that has it wins.
 */
export function sizeModelLookup(records: readonly ResultRecord[]): SizeModelLookup {
  const configs = records
    .filter((r) => r.kind === 'capacity')
    .flatMap((r) => ((r.stats as Partial<CapacityStats>).configurations ?? []).map((c) => ({ recordId: r.id, c })))
  if (configs.length === 0) return () => null
  return (group, gpuCount, stage) => {
    for (const { recordId, c } of configs) {
      if (c.gpuCount !== gpuCount || (group !== c.label && !group.startsWith(`${c.label}, `))) continue
      const s = c.stages.find((x) => x.stage === stage)
      if (s)
        return {
          recordId,
          configuration: c.label,
          fixedMs: figureOf(s.fixedMs),
          msPerSequence: figureOf(s.msPerSequence),
        }
    }
    return null
  }
}

const NONE: StageSplit = { startupMs: null, steadyMs: null, steadyUtilPct: null, sizeModel: null }

/** The split of a stage from its evidence (GPU stages only) and the capacity records' size models. */
export function stageSplit(e: StageEvidence, group: string, gpuCount: number, lookup: SizeModelLookup): StageSplit {
  if (!e.gpuStage) return NONE
  const startupMs = e.leadingIdleMs === null ? null : Math.min(e.leadingIdleMs, e.durationMs)
  return {
    startupMs,
    steadyMs: startupMs === null ? null : e.durationMs - startupMs,
    steadyUtilPct: e.steadyUtilPct,
    sizeModel: lookup(group, gpuCount, e.stage),
  }
}
