/**
 * The optimization matrix's arms held to what their labels say (issue 56): an arm left out before running (no path of
 * the pipeline reads its switch on these GPUs) and an arm whose completed runs do not show its switches in their log
 * (engine/optimization-matrix armRefusal) get no verdict of their own; the record says which arm and why in one line,
 * and the other arms are judged as before.
 */
import { completedRuns, type MeasuredConfiguration } from '../../engine/measure-configuration.ts'
import { type ArmNotRun, armRefusal, type OptimizationMatrix } from '../../engine/optimization-matrix/index.ts'

export interface MatrixChecks {
  notRun: readonly ArmNotRun[]
  /** Arm label -> why its runs do not show its switches. */
  refused: ReadonlyMap<string, string>
}

/**
 * Each measured arm's runs against its switches; `measured[i]` is the measurement of `matrix.arms[i]`. An arm without
 * a completed run is not refused here: it has no run to show anything, and its failure is its verdict.
 */
export function checkMatrix(matrix: OptimizationMatrix, measured: readonly MeasuredConfiguration[]): MatrixChecks {
  const refused = new Map<string, string>()
  matrix.arms.forEach((arm, i) => {
    const runs = measured[i] ? completedRuns(measured[i]) : []
    const why = runs.length > 0 ? armRefusal(arm, runs) : null
    if (why !== null) refused.set(arm.config.label, why)
  })
  return { notRun: matrix.notRun, refused }
}
