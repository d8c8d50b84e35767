/**
 * Repetition policy as a pure decision: given the runs so far, what to do next. The caller runs the process, records
 * the run (warm-ups included, marked as such) and asks again. Warm-up runs are kept in the record but never enter the
 * statistics. Several arms (A/B comparisons) are interleaved so that slow drift (thermal state, clocks, other tenants)
 * falls on both sides: `alternate` is A B A B ..., `counterbalanced` is A B B A A B ..., which also cancels a linear
 * drift within each pair of rounds.
 * Stop when every arm has `minRuns` and its median's CI half-width is within `targetRelHalfWidth` of the median (with
 * the CI reaching its nominal coverage), or at the run budget (checked at round boundaries so arms stay balanced), or
 * when the next run would overrun the time budget.
 */
import { MeasureInputError } from './errors.ts'
import { type MedianEstimate, medianWithCi, relativeHalfWidth } from './median-ci.ts'
import { toSorted } from './samples.ts'

export interface RepetitionPolicy {
  warmupRuns: number
  /** 6 by default: the smallest n whose distribution-free 95% CI of the median exists ([min, max] covers 96.9%). */
  minRuns: number
  maxRuns: number
  /** Wall-time budget for all runs of this measurement, warm-ups included. */
  maxTotalMs: number
  targetRelHalfWidth: number
  level: number
  order: 'alternate' | 'counterbalanced'
  /**
   * The arms that take warm-ups (default every arm): where the arms are sizes of one configuration, one warm-up of its
   * first arm warms the host (GPU clocks, page cache, imports) for the others, and a warm-up of a large size would
   * cost as much as a measured run.
   */
  warmupArms?: readonly string[]
}

export const DEFAULT_REPETITION_POLICY: Readonly<RepetitionPolicy> = {
  warmupRuns: 1,
  minRuns: 6,
  maxRuns: 20,
  maxTotalMs: Number.POSITIVE_INFINITY,
  targetRelHalfWidth: 0.02,
  level: 0.95,
  order: 'alternate',
}

export interface RecordedRun {
  arm: string
  phase: 'warmup' | 'measured'
  durationMs: number
}

export type StopReason = 'precision-reached' | 'run-budget' | 'time-budget'
export type NextStep =
  | { action: 'run'; arm: string; phase: 'warmup' | 'measured' }
  | { action: 'stop'; reason: StopReason; arms: ArmStatus[] }

export interface ArmStatus {
  arm: string
  warmups: number
  measured: number[]
  estimate: MedianEstimate | null
  relHalfWidth: number | null
  precise: boolean
}

/** Measured durations of one arm in run order; warm-ups left out. */
export function measuredDurations(runs: readonly RecordedRun[], arm: string): number[] {
  return runs.filter((run) => run.arm === arm && run.phase === 'measured').map((run) => run.durationMs)
}

function armStatus(runs: readonly RecordedRun[], arm: string, policy: RepetitionPolicy): ArmStatus {
  const measured = measuredDurations(runs, arm)
  const warmups = runs.filter((run) => run.arm === arm && run.phase === 'warmup').length
  if (measured.length === 0) return { arm, warmups, measured, estimate: null, relHalfWidth: null, precise: false }
  const estimate = medianWithCi(toSorted(measured, `measured runs of ${arm}`), { level: policy.level })
  const relHalfWidth = relativeHalfWidth(estimate)
  const nominal = estimate.ci !== null && (estimate.ci.coverage === null || estimate.ci.coverage >= policy.level)
  const precise = nominal && relHalfWidth !== null && relHalfWidth <= policy.targetRelHalfWidth
  return { arm, warmups, measured, estimate, relHalfWidth, precise }
}

/** Which arm the k-th measured run (0-based) belongs to under the policy's interleaving order. */
export function armForRun(arms: readonly string[], k: number, order: RepetitionPolicy['order']): string {
  const round = Math.floor(k / arms.length)
  const position = k % arms.length
  const reversed = order === 'counterbalanced' && round % 2 === 1
  return arms[reversed ? arms.length - 1 - position : position] as string
}

function stopReason(statuses: ArmStatus[], runs: readonly RecordedRun[], elapsedMs: number, policy: RepetitionPolicy) {
  const counts = statuses.map((status) => status.measured.length)
  const roundDone = counts.every((count) => count === counts[0])
  if (roundDone && statuses.every((s) => s.measured.length >= policy.minRuns && s.precise)) return 'precision-reached'
  if (roundDone && counts.some((count) => count >= policy.maxRuns)) return 'run-budget'
  const lastMs = runs.at(-1)?.durationMs ?? 0
  if (elapsedMs + lastMs > policy.maxTotalMs) return 'time-budget'
  return null
}

/**
 * Decides the next step from the runs so far (in the order they ran).
 * @param arms arm names; one arm for a plain measurement, two or more for an interleaved comparison
 * @param elapsedMs wall time spent so far on this measurement
 * @throws MeasureInputError when a policy number is out of range or no arm is given.
 */
export function nextStep(
  runs: readonly RecordedRun[],
  elapsedMs: number,
  arms: readonly string[] = ['run'],
  policy: RepetitionPolicy = DEFAULT_REPETITION_POLICY,
): NextStep {
  if (arms.length === 0) throw new MeasureInputError('arms', 'needs at least one arm')
  if (!(policy.minRuns >= 1 && policy.maxRuns >= policy.minRuns)) {
    throw new MeasureInputError('policy', `needs 1 <= minRuns <= maxRuns, got ${policy.minRuns}, ${policy.maxRuns}`)
  }
  const statuses = arms.map((arm) => armStatus(runs, arm, policy))
  const reason = stopReason(statuses, runs, elapsedMs, policy)
  if (reason !== null) return { action: 'stop', reason, arms: statuses }
  // Warm-ups interleave too: the arm with the fewest goes next (A B A B ...).
  const warming = statuses.filter((s) => policy.warmupArms?.includes(s.arm) ?? true)
  const fewest = warming.reduce<ArmStatus | null>(
    (best, s) => (best === null || s.warmups < best.warmups ? s : best),
    null,
  )
  if (fewest && fewest.warmups < policy.warmupRuns) return { action: 'run', arm: fewest.arm, phase: 'warmup' }
  const measuredSoFar = statuses.reduce((sum, status) => sum + status.measured.length, 0)
  return { action: 'run', arm: armForRun(arms, measuredSoFar, policy.order), phase: 'measured' }
}
