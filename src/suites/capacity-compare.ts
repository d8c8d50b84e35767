/**
 * A k-GPU configuration's size model against the 1-GPU one: speedup and efficiency at the measured size and at the
 * target sizes, the break-even size (the smallest input at which k GPUs beat 1, in sequences), the asymptotic speedup
 * (input size to infinity), and PERF-03 (the ESM-2 stage's speedup) at each size.
 */
import type { Thresholds } from '../config/thresholds.ts'
import { asymptoticSpeedup, breakEvenSize, type SizeEstimate, type SizeModel, speedupAt } from '../measure/index.ts'
import { WALL } from './capacity-runs.ts'

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

/**
 * @param sizes the largest size both configurations measured, then the targets (sequences)
 */
export function compareCapacity(
  base: { label: string; model: SizeModel },
  candidate: { label: string; model: SizeModel; gpuCount: number },
  sizes: readonly number[],
  t: Thresholds,
): ComparisonCapacity {
  const k = candidate.gpuCount
  const stage = t.perf03.stage
  const timed = base.model.series.includes(stage) && candidate.model.series.includes(stage)
  return {
    gpuCount: k,
    baseline: base.label,
    candidate: candidate.label,
    at: sizes.map((sequences) => {
      const speedup = speedupAt(base.model, candidate.model, WALL, sequences)
      return { sequences, speedup, efficiency: scale(speedup, 1 / k) }
    }),
    breakEvenSequences: breakEvenSize(base.model, candidate.model, WALL),
    asymptoticSpeedup: asymptoticSpeedup(base.model, candidate.model, WALL),
    perf03:
      timed && k === t.perf03.gpus
        ? sizes.map((sequences) => ({ sequences, speedup: speedupAt(base.model, candidate.model, stage, sequences) }))
        : [],
  }
}
