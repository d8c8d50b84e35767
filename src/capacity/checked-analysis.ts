/**
 * A capacity analysis checked against its held-out runs (issue 48): fitted without them and projected to their size;
 * where a configuration's check misses, its questions stay undecided and the runs join the fit (one more size), so
 * the figures are the best model the runs give while the checks and the undecided questions are those of the model
 * that did not see them. The suite's record and the design study read it the same way.
 */
import type { Thresholds } from '../config/thresholds.ts'
import type { MeasuredConfiguration } from '../engine/measure-configuration.ts'
import type { Analysis } from '../engine/verdict.ts'
import type { ResolvedInput } from '../input/resolver.ts'
import { type AnalysisOptions, analyzeCapacity, type CapacityStats, type ConfigMeasurements } from './analyze.ts'

/** The held-out runs by configuration and their size: what joins the fit when the check misses. */
export interface JoinOnMiss {
  input: ResolvedInput
  byGpuCount: ReadonlyMap<number, MeasuredConfiguration>
}

/** Each configuration's measurements with its held-out runs as one more size (none for a configuration without). */
function joined(measured: readonly ConfigMeasurements[], j: JoinOnMiss): ConfigMeasurements[] {
  return measured.map((c) => ({
    ...c,
    bySize: [
      ...c.bySize,
      j.byGpuCount.get(c.gpuCount) ?? {
        config: c.config,
        observations: [],
        stop: 'run-budget',
        failure: null,
        reusedRuns: 0,
      },
    ],
  }))
}

/**
 * The analysis with `options.heldOut` checked; with a miss and the runs to join, the refit with them joined. Its
 * stats say which (`joinedHeldOut`: the records of the size joined).
 */
export function checkedAnalysis(
  measured: readonly ConfigMeasurements[],
  inputs: readonly ResolvedInput[],
  t: Thresholds,
  extraSizes: readonly number[],
  options: AnalysisOptions,
  join: JoinOnMiss | null,
): Analysis<CapacityStats> {
  const checked = analyzeCapacity(measured, inputs, t, extraSizes, options)
  const missed = (checked.stats.direct ?? []).some((d) => d.insideCi === false)
  if (!missed || !join) return checked
  const refit = analyzeCapacity(joined(measured, join), [...inputs, join.input], t, extraSizes, {
    ...options,
    heldOut: [],
    checks: checked.stats.direct ?? [],
  })
  return { ...refit, stats: { ...refit.stats, joinedHeldOut: join.input.records } }
}
