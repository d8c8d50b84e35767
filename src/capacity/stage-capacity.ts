/**
 * A GPU stage's figures in a configuration's size model: its start-up and steady-state utilization at the largest
 * measured size, its utilization projected to each size (capacity/util-projection.ts), and its time as fixed +
 * per-sequence.
 */

import { type EstimateStat, estimate, toStat } from '../engine/stage-metrics.ts'
import {
  asymptoticRatio,
  estimateFrom,
  type LineSelector,
  type SizeEstimate,
  type SizeModel,
  seriesLine,
  valueAt,
} from '../measure/index.ts'
import { type CapacityModel, filesAt, partLine, partsOfStage, stageOf, valueOfParts } from './parts.ts'
import { buildsSeries, busySeries, type CapacityRun } from './runs.ts'
import { outOfRange, utilDisagreement, utilFromSteady } from './util-projection.ts'

export interface StageCapacity {
  stage: string
  /** From the runs at the largest size: start-up before the GPU's first work, and utilization after it. */
  startupMs: EstimateStat | null
  steadyUtilPct: EstimateStat | null
  /**
   * Utilization at each size of `at`, built from the steady state: steady utilization x the share of the stage after
   * the GPU's first work (1 - start-up / stage time at that size), so it tends to the steady state as the input grows
   * and never leaves 0-100% by construction (capacity/util-projection.ts). `busyModelPct`: what the GPU-busy series' own
   * line says at that size (its busy time over stage time, unclipped); `disagreement` says so when the two CIs do not
   * meet (the monitor's busy time and the stage times tell two stories), null when they agree or one is missing.
   */
  utilAt: {
    sequences: number
    /** null: no projection stands (no steady state, and the busy line leaves 0-100%); `disagreement` says why. */
    utilPct: SizeEstimate | null
    busyModelPct: SizeEstimate | null
    disagreement: string | null
  }[]
  /**
   * Utilization as the input grows without bound: the steady state (less the share of the stage's per-sequence time
   * that its builds per file idle through, capacity/builds.ts), or the busy model's slope ratio without one.
   */
  asymptoticUtilPct: SizeEstimate | null
  /** The stage as fixed + per-sequence: what is start-up and what is steady state. */
  fixedMs: SizeEstimate
  msPerSequence: SizeEstimate
}

/** A fraction as a percentage (estimate and CI). */
const pct = (e: SizeEstimate): SizeEstimate => {
  const scaled = (x: number) => x * 100
  return { estimate: scaled(e.estimate), ci: e.ci ? { ...e.ci, low: scaled(e.ci.low), high: scaled(e.ci.high) } : null }
}

/** A line's fixed part and slope, each with its CI at `level`. */
export function lineFigures(model: SizeModel, read: LineSelector, level = 0.95) {
  return {
    fixedMs: estimateFrom([model], (line) => read(line).fixed, level),
    msPerSequence: estimateFrom([model], (line) => read(line).perUnit, level),
  }
}

export function stageCapacity(
  model: CapacityModel,
  stage: string,
  largest: CapacityRun[],
  sizes: number[],
  /** The level of every CI (capacity/decisions.ts: a look's level). */
  level = 0.95,
): StageCapacity {
  const busy = seriesLine(busySeries(stage))
  const hasBusy = model.series.includes(busySeries(stage))
  const stageLine = stageOf(model, stage)
  const stageAt = valueOfParts(model, partsOfStage(model, stage))
  // A stage that builds per file idles through each build: those a size makes beyond the largest measured size's
  // (whose steady utilization holds its own) add to its start-up (point cost a build; the interval product is wide).
  const files = model.fileCounts?.[buildsSeries(stage)]
  const extraBuildsMs = (sequences: number) =>
    files
      ? model.fits[buildsSeries(stage)]!.fixed *
        Math.max(0, filesAt(files, sequences) - filesAt(files, largest[0]?.size ?? sequences))
      : 0
  // Builds never stop as the input grows: the stage idles through the builds' share of its per-sequence time.
  const fit = (s: string) => model.fits[s]!
  const idleShare = files
    ? Math.min(1, partLine(fit, buildsSeries(stage), model).perUnit / stageLine(fit).perUnit || 0)
    : 0
  const median = (get: (r: CapacityRun) => number | null, what: string) =>
    toStat(estimate(largest.map(get), what, level))
  const startupMs = median((r) => r.startup[stage]?.startupMs ?? null, `${stage} start-up`)
  const steadyUtilPct = median((r) => r.startup[stage]?.steadyUtilPct ?? null, `${stage} steady util`)
  const utilAt = hasBusy
    ? sizes.map((sequences) => {
        const busyModelPct = pct(
          estimateFrom([model], (line) => valueAt(busy(line), sequences) / stageAt(line, sequences), level),
        )
        const stageMs = estimateFrom([model], (line) => stageAt(line, sequences), level)
        const fromSteady = utilFromSteady(steadyUtilPct, idleBefore(startupMs, extraBuildsMs(sequences)), stageMs)
        // Without a steady state the busy line is all there is: shown as it is, or, where it leaves 0-100%, no figure.
        const disagreement = fromSteady ? utilDisagreement(fromSteady, busyModelPct) : outOfRange(busyModelPct)
        return {
          sequences,
          utilPct: fromSteady ?? (disagreement ? null : busyModelPct),
          busyModelPct,
          disagreement,
        }
      })
    : []
  return {
    stage,
    startupMs,
    steadyUtilPct,
    utilAt,
    asymptoticUtilPct: steadyUtilPct
      ? {
          estimate: steadyUtilPct.median * (1 - idleShare),
          ci: steadyUtilPct.ci && {
            ...steadyUtilPct.ci,
            low: steadyUtilPct.ci.low * (1 - idleShare),
            high: steadyUtilPct.ci.high * (1 - idleShare),
          },
        }
      : hasBusy
        ? pct(asymptoticRatio(model, busy, stageLine, level))
        : null,
    ...lineFigures(model, stageLine, level),
  }
}

/** A start-up with `extraMs` more idle time after it. */
const idleBefore = (startup: EstimateStat | null, extraMs: number): EstimateStat | null =>
  startup && extraMs > 0
    ? {
        ...startup,
        median: startup.median + extraMs,
        ci: startup.ci && { ...startup.ci, low: startup.ci.low + extraMs, high: startup.ci.high + extraMs },
      }
    : startup
