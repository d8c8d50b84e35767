/**
 * A k-GPU configuration's size model against the 1-GPU one: speedup and efficiency at the measured size and at the
 * target sizes, the break-even size (the smallest input at which k GPUs beat 1, in sequences), the asymptotic speedup
 * (input size to infinity), and PERF-03 (the ESM-2 stage's speedup) at each size.
 */
import type { Thresholds } from '../config/thresholds.ts'
import { asymptoticSpeedup, breakEvenSize, estimateFrom, type SizeEstimate } from '../measure/index.ts'
import { type CapacityModel, partsOfStage, valueOfParts, wallOf } from './parts.ts'

export interface ComparisonCapacity {
  gpuCount: number
  baseline: string
  candidate: string
  /** The largest size both measured, then each target. */
  at: { sequences: number; speedup: SizeEstimate; efficiency: SizeEstimate }[]
  breakEvenSequences: SizeEstimate
  asymptoticSpeedup: SizeEstimate
  /** PERF-03's stage at each size of `at`; empty when the stage was not timed in both or k is not PERF-03's. */
  perf03: { sequences: number; speedup: SizeEstimate }[]
}

const scale = (e: SizeEstimate, by: number): SizeEstimate => ({
  estimate: e.estimate * by,
  ci: e.ci ? { ...e.ci, low: e.ci.low * by, high: e.ci.high * by } : null,
})

/** A configuration as the comparison reads it: its model and the parts its wall time is the sum of. */
export interface FittedConfiguration {
  label: string
  model: CapacityModel
  parts: readonly string[]
}

/** base(size) / candidate(size) over the draws, each summed from its parts at that size (builds per file as steps). */
function speedupAt(
  base: { model: CapacityModel; parts: readonly string[] },
  candidate: { model: CapacityModel; parts: readonly string[] },
  size: number,
  level: number,
): SizeEstimate {
  const [a, b] = [valueOfParts(base.model, base.parts), valueOfParts(candidate.model, candidate.parts)]
  return estimateFrom([base.model, candidate.model], (la, lb) => a(la, size) / b(lb, size), level)
}

/**
 * @param sizes the largest size both configurations measured, then the targets (sequences)
 */
export function compareCapacity(
  base: FittedConfiguration,
  candidate: FittedConfiguration & { gpuCount: number },
  sizes: readonly number[],
  t: Thresholds,
  /** The level of every CI (capacity/decisions.ts: a look's level). */
  level = 0.95,
): ComparisonCapacity {
  const k = candidate.gpuCount
  const stage = t.perf03.stage
  const timed = base.model.series.includes(stage) && candidate.model.series.includes(stage)
  // Break-even and the asymptote need lines: builds per file as the line their steps run along (parts.ts).
  const wallA = { model: base.model, select: wallOf(base.parts, base.model) }
  const wallB = { model: candidate.model, select: wallOf(candidate.parts, candidate.model) }
  const stageA = timed ? { model: base.model, parts: partsOfStage(base.model, stage) } : null
  const stageB = timed ? { model: candidate.model, parts: partsOfStage(candidate.model, stage) } : null
  return {
    gpuCount: k,
    baseline: base.label,
    candidate: candidate.label,
    at: sizes.map((sequences) => {
      const speedup = speedupAt(base, candidate, sequences, level)
      return { sequences, speedup, efficiency: scale(speedup, 1 / k) }
    }),
    breakEvenSequences: breakEvenSize(wallA, wallB, level),
    asymptoticSpeedup: asymptoticSpeedup(wallA, wallB, level),
    perf03:
      stageA && stageB && k === t.perf03.gpus
        ? sizes.map((sequences) => ({ sequences, speedup: speedupAt(stageA, stageB, sequences, level) }))
        : [],
  }
}
