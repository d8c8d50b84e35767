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
import { type CapacityModel, partLine, partsOfStage, stageOf, valueOfParts } from './parts.ts'
import { buildsSeries, busySeries, type CapacityRun } from './runs.ts'
import { heldMarginal, steadyVersusMarginal, utilDisagreement, utilTowardMarginal } from './util-projection.ts'

export interface StageCapacity {
  stage: string
  /**
   * From the runs at the largest size: start-up before the GPU's work onset (its worker's first batch, else the first
   * sample from which it stays busy), and utilization from there to its work's end (runs.ts).
   */
  startupMs: EstimateStat | null
  steadyUtilPct: EstimateStat | null
  /**
   * Utilization at each size of `at`: the busy share measured at the largest size, carried over to the time a larger
   * input adds at the marginal busy share across sizes (d busy / d stage, held inside 0-100% and at the steady state),
   * so it tends to that share as the input grows and never leaves 0-100% (capacity/util-projection.ts says how it
   * relates to the steady state). `busyModelPct`: what the GPU-busy series' own line says at that size (its busy time
   * over stage time, unclipped). `disagreement`, null where all agree: above the largest size, that the steady state
   * and the marginal share's CIs do not meet (the stage's idle time grows with the input, or the reverse); at any
   * size, that the projection and the busy line's reading do not meet (the line leaves what the projection holds).
   */
  utilAt: {
    sequences: number
    /** Nullable for the readers of analyses made before the projection always stood (it no longer is null). */
    utilPct: SizeEstimate | null
    busyModelPct: SizeEstimate | null
    disagreement: string | null
  }[]
  /**
   * Utilization as the input grows without bound: the marginal busy share across sizes (d busy / d stage), held inside
   * 0-100% and at the steady state; without a busy line, the steady state less the share of the stage's per-sequence
   * time that its builds per file idle through (capacity/builds.ts).
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
  // Builds never stop as the input grows: without a busy line, the stage idles through the builds' share of its
  // per-sequence time.
  const files = model.fileCounts?.[buildsSeries(stage)]
  const fit = (s: string) => model.fits[s]!
  const idleShare = files
    ? Math.min(1, partLine(fit, buildsSeries(stage), model).perUnit / stageLine(fit).perUnit || 0)
    : 0
  const median = (get: (r: CapacityRun) => number | null, what: string) =>
    toStat(estimate(largest.map(get), what, level))
  const startupMs = median((r) => r.startup[stage]?.startupMs ?? null, `${stage} start-up`)
  const steadyUtilPct = median((r) => r.startup[stage]?.steadyUtilPct ?? null, `${stage} steady util`)
  const largestSize = largest[0]?.size ?? Math.min(...sizes)
  const shareAt = (n: number) => pct(estimateFrom([model], (line) => valueAt(busy(line), n) / stageAt(line, n), level))
  // d busy / d stage: what the utilization tends to (util-projection.ts), held inside 0-100% and at the steady state.
  const marginalPct = hasBusy ? pct(asymptoticRatio(model, busy, stageLine, level)) : null
  // A steady state read from the first busy sample holds the wait for the first batch (records kept with neither the
  // work figures nor batch lines: capacity/gpu-work.ts): nothing to hold the marginal share at, nor to set beside it.
  const fromFirstBusy = largest.some((r) => r.startup[stage]?.steadyFrom === 'first-busy')
  const workSteadyPct = fromFirstBusy ? null : steadyUtilPct
  const heldPct = marginalPct && heldMarginal(marginalPct, workSteadyPct)
  const steadyNote = marginalPct && workSteadyPct ? steadyVersusMarginal(workSteadyPct, marginalPct) : null
  const measuredPct = hasBusy ? shareAt(largestSize) : null
  const utilAt =
    heldPct && measuredPct
      ? sizes.map((sequences) => {
          const busyModelPct = shareAt(sequences)
          const weight = estimateFrom([model], (line) => stageAt(line, largestSize) / stageAt(line, sequences), level)
          const utilPct = utilTowardMarginal(measuredPct, heldPct, weight)
          const notes = [sequences > largestSize ? steadyNote : null, utilDisagreement(utilPct, busyModelPct)]
          return { sequences, utilPct, busyModelPct, disagreement: notes.filter(Boolean).join('; ') || null }
        })
      : []
  return {
    stage,
    startupMs,
    steadyUtilPct,
    utilAt,
    asymptoticUtilPct:
      heldPct ??
      (steadyUtilPct && {
        estimate: steadyUtilPct.median * (1 - idleShare),
        ci: steadyUtilPct.ci && {
          ...steadyUtilPct.ci,
          low: steadyUtilPct.ci.low * (1 - idleShare),
          high: steadyUtilPct.ci.high * (1 - idleShare),
        },
      }),
    ...lineFigures(model, stageLine, level),
  }
}
