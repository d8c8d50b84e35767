/**
 * The accuracy check "a 10% subset predicts the full run within 5%": the subset run is projected to the full run's
 * size by the e2e suite's own projection (src/suites/e2e-projection.ts, no second method) and compared with the full
 * run's measured wall time (the runner's spawn-to-exit time, RunRecord.wallMs).
 */
import { type E2eProjection, projectObservation } from '../suites/e2e-projection.ts'
import type { RunObservation } from '../suites/observe-run.ts'

export interface ProjectionAccuracy {
  projectedMs: number
  measuredMs: number
  /** (projected - measured) / measured. */
  relativeError: number
  within: boolean
  tolerance: number
}

/**
 * Compares a projection with the measured time of the full run.
 * @throws RangeError for a non-positive measured time.
 */
export function projectionAccuracy(projectedMs: number, measuredMs: number, tolerance = 0.05): ProjectionAccuracy {
  if (!(measuredMs > 0)) throw new RangeError(`measuredMs must be > 0, got ${measuredMs}`)
  const relativeError = (projectedMs - measuredMs) / measuredMs
  return { projectedMs, measuredMs, relativeError, within: Math.abs(relativeError) <= tolerance, tolerance }
}

export type ProjectionCheck =
  | {
      state: 'checked'
      accuracy: ProjectionAccuracy
      /** The projection's CI for the full run's size (covers within-run variation only: E2eProjection.covers). */
      ci: { low: number; high: number; level: number }
      projection: E2eProjection
    }
  | { state: 'not-projected'; reason: string }

/**
 * Projects `subset` to the full run's input size and compares it with `full`'s wall time.
 * @throws RangeError when the full run printed no sequence count or has no positive wall time.
 */
export function checkProjection(
  subset: RunObservation,
  full: RunObservation,
  seed: string,
  tolerance = 0.05,
): ProjectionCheck {
  const sequences = full.measured.run.summary?.sequencesProcessed ?? null
  if (!sequences) throw new RangeError(`full run '${full.measured.label}' printed no sequence count`)
  const outcome = projectObservation(subset, [{ sequences }], seed)
  if (outcome.state !== 'projected') return outcome
  const projected = outcome.projection.projections[0]!.projectedMs
  return {
    state: 'checked',
    accuracy: projectionAccuracy(projected.estimate, full.measured.run.wallMs, tolerance),
    ci: projected.ci,
    projection: outcome.projection,
  }
}
