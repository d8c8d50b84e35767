/**
 * The accuracy check "a 10% subset predicts the full run within 5%": the subset run is projected to the full run's
 * size by the e2e suite's own projection (src/suites/e2e/e2e-projection.ts, no second method) and compared with the full
 * run's measured wall time (the runner's spawn-to-exit time, RunRecord.wallMs).
 */

import type { RunObservation } from '../engine/observe-run.ts'
import { type E2eProjection, projectObservation, wallParts } from '../suites/e2e/e2e-projection.ts'

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
      /** Each part of the wall time, projected against the full run's: where the error comes from. */
      parts: PartError[]
    }
  | { state: 'not-projected'; reason: string }

export interface PartError {
  name: string
  projectedMs: number
  /** The full run's time in this part; 0 when the full run has no such part. */
  measuredMs: number
}

/**
 * The projection's parts at `sequences` against the same parts of the full run (stages by name, and the time outside
 * them). The differences sum to the projection's error, since both sides' parts sum to their wall times (a stage only
 * one run has counts 0 on the other side).
 */
export function partErrors(projection: E2eProjection, full: RunObservation, sequences: number): PartError[] {
  const measured = new Map(wallParts(full, null, sequences).parts.map((p) => [p.name, p.durationMs]))
  const errors = projection.parts.map((p) => ({
    name: p.name,
    projectedMs: p.fixedMs + p.msPerSequence * sequences,
    measuredMs: measured.get(p.name) ?? 0,
  }))
  for (const [name, measuredMs] of measured)
    if (!errors.some((e) => e.name === name)) errors.push({ name, projectedMs: 0, measuredMs })
  return errors
}

/** The parts that moved the projection most, largest first: `ESM-2 Feature Extraction +0.86 s, ...`. */
export function describePartErrors(parts: readonly PartError[], count = 4): string {
  return [...parts]
    .sort((a, b) => Math.abs(b.projectedMs - b.measuredMs) - Math.abs(a.projectedMs - a.measuredMs))
    .slice(0, count)
    .map((p) => {
      const deltaS = (p.projectedMs - p.measuredMs) / 1000
      return `${p.name} ${deltaS >= 0 ? '+' : ''}${deltaS.toFixed(2)} s`
    })
    .join(', ')
}

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
    parts: partErrors(outcome.projection, full, sequences),
  }
}
