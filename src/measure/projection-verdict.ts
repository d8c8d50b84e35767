/**
 * PERF-01 style verdicts: the projected time for M sequences against a target with a tolerance (default: 10 h, +10%).
 * `pass` when the whole CI is within target x (1 + tolerance), `fail` when the whole CI is beyond it, `inconclusive`
 * when the CI straddles the limit.
 */
import { percentileInterval } from './bootstrap.ts'
import { MeasureInputError } from './errors.ts'
import type { ProjectionModel } from './projection.ts'

export const DEFAULT_TARGET_MS = 10 * 3600 * 1000
export const DEFAULT_TOLERANCE = 0.1
/** Upstream's two sample sizes: a typical sample (45K sequences) and a large one (6M). */
export const DEFAULT_TARGET_SEQUENCES = [45_000, 6_000_000] as const

export interface ProjectionTarget {
  sequences: number
  targetMs?: number
  tolerance?: number
}

export interface ProjectedTime {
  sequences: number
  projectedMs: { estimate: number; ci: { low: number; high: number; level: number } }
  targetMs: number
  tolerance: number
  limitMs: number
  verdict: 'pass' | 'fail' | 'inconclusive'
  reason: string
}

/**
 * Projects the model to `target.sequences` and judges it.
 * @throws MeasureInputError when sequences is not a positive number or the tolerance is negative.
 */
export function projectTo(model: ProjectionModel, target: ProjectionTarget): ProjectedTime {
  const { sequences } = target
  if (!(sequences > 0)) throw new MeasureInputError('sequences', `must be positive, got ${sequences}`)
  const targetMs = target.targetMs ?? DEFAULT_TARGET_MS
  const tolerance = target.tolerance ?? DEFAULT_TOLERANCE
  if (!(tolerance >= 0)) throw new MeasureInputError('tolerance', `must be >= 0, got ${tolerance}`)
  const project = (fit: { fixedMs: number; msPerSequence: number }) => fit.fixedMs + fit.msPerSequence * sequences
  const replicates = Float64Array.from(model.replicates, project).sort()
  const ci = { ...percentileInterval(replicates, model.level), level: model.level }
  const estimate = project(model.fit)
  const limitMs = targetMs * (1 + tolerance)
  const shown = `${sequences} sequences: ${(estimate / 3.6e6).toFixed(2)} h [${(ci.low / 3.6e6).toFixed(2)}, ${(ci.high / 3.6e6).toFixed(2)}]`
  const limit = `limit ${(limitMs / 3.6e6).toFixed(2)} h`
  const verdict = ci.high <= limitMs ? 'pass' : ci.low > limitMs ? 'fail' : 'inconclusive'
  const reason = `${shown} vs ${limit}${verdict === 'inconclusive' ? ' (CI straddles it)' : ''}`
  return { sequences, projectedMs: { estimate, ci }, targetMs, tolerance, limitMs, verdict, reason }
}
