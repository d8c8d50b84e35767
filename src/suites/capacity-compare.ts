/**
 * A k-GPU configuration's size model against the 1-GPU one: speedup and efficiency at the measured size and at the
 * target sizes, the break-even size (the smallest input at which k GPUs beat 1, in sequences), the asymptotic speedup
 * (input size to infinity), and PERF-03 (the ESM-2 stage's speedup) at each size.
 */
import type { Thresholds } from '../config/thresholds.ts'
import {
  crossingSize,
  estimateFrom,
  type LineOf,
  type SizeEstimate,
  type SizeModel,
  valueAt,
} from '../measure/index.ts'
import { stageOf, wallOf } from './capacity-model.ts'

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

type Read = (line: LineOf) => { fixed: number; perUnit: number }

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
  const both = (f: (a: Read, b: Read) => (la: LineOf, lb: LineOf) => number, a: Read, b: Read) =>
    estimateFrom([base.model, candidate.model], f(a, b))
  const speedupOf = (size: number) => (a: Read, b: Read) => (la: LineOf, lb: LineOf) =>
    valueAt(a(la), size) / valueAt(b(lb), size)
  const wallA = wallOf(base.parts)
  const wallB = wallOf(candidate.parts)
  return {
    gpuCount: k,
    baseline: base.label,
    candidate: candidate.label,
    at: sizes.map((sequences) => {
      const speedup = both(speedupOf(sequences), wallA, wallB)
      return { sequences, speedup, efficiency: scale(speedup, 1 / k) }
    }),
    breakEvenSequences: both((a, b) => (la, lb) => crossingSize(a(la), b(lb)), wallA, wallB),
    asymptoticSpeedup: both((a, b) => (la, lb) => a(la).perUnit / b(lb).perUnit, wallA, wallB),
    perf03:
      timed && k === t.perf03.gpus
        ? sizes.map((sequences) => ({
            sequences,
            speedup: both(speedupOf(sequences), stageOf(base.model, stage), stageOf(candidate.model, stage)),
          }))
        : [],
  }
}
