/**
 * A k-GPU configuration's size model against the 1-GPU one: speedup and efficiency at the measured size and at the
 * target sizes, the break-even size (the smallest input at which k GPUs beat 1, in sequences), the asymptotic speedup
 * (input size to infinity), and PERF-03 (the ESM-2 stage's speedup) at each size.
 */
import type { Thresholds } from '../../config/thresholds.ts'
import { asymptoticSpeedup, breakEvenSize, type SizeEstimate, type SizeModel, speedupAt } from '../../measure/index.ts'
import { stageOf, wallOf } from './parts.ts'

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
  model: SizeModel
  parts: readonly string[]
}

/**
 * @param sizes the largest size both configurations measured, then the targets (sequences)
 */
export function compareCapacity(
  base: FittedConfiguration,
  candidate: FittedConfiguration & { gpuCount: number },
  sizes: readonly number[],
  t: Thresholds,
): ComparisonCapacity {
  const k = candidate.gpuCount
  const stage = t.perf03.stage
  const timed = base.model.series.includes(stage) && candidate.model.series.includes(stage)
  const wallA = { model: base.model, select: wallOf(base.parts) }
  const wallB = { model: candidate.model, select: wallOf(candidate.parts) }
  const stageA = { model: base.model, select: stageOf(base.model, stage) }
  const stageB = { model: candidate.model, select: stageOf(candidate.model, stage) }
  return {
    gpuCount: k,
    baseline: base.label,
    candidate: candidate.label,
    at: sizes.map((sequences) => {
      const speedup = speedupAt(wallA, wallB, sequences)
      return { sequences, speedup, efficiency: scale(speedup, 1 / k) }
    }),
    breakEvenSequences: breakEvenSize(wallA, wallB),
    asymptoticSpeedup: asymptoticSpeedup(wallA, wallB),
    perf03:
      timed && k === t.perf03.gpus
        ? sizes.map((sequences) => ({ sequences, speedup: speedupAt(stageA, stageB, sequences) }))
        : [],
  }
}
