/**
 * A refit of stored runs checked against the runs it left out (issue 58), as the suite checked its own fit
 * (capacity/checked-analysis.ts): the runs at sizes not fitted (the `... seqs direct` held-out runs, or the sizes
 * `--sizes` leaves out) are projected to and checked, so a refit reads the held-out status its measurement earned
 * (capacity/held-out-status.ts); where a check misses, its questions stay undecided and those runs join the fit. One
 * way to refit, for `capacity` and for every reader that refits a record (a partial one: capacity/record-answer.ts).
 */
import type { Thresholds } from '../config/thresholds.ts'
import type { Analysis } from '../engine/verdict.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import { type AnalysisOptions, analyzeCapacityRuns, type CapacityStats } from './analyze.ts'
import { missedChecks } from './held-out.ts'
import { type RefitInput, type RefitOptions, refitInput } from './refit.ts'

export interface CheckedRefit extends Analysis<CapacityStats> {
  input: RefitInput
}

/**
 * The refit of `records` (`input`: refitInput of them with `options`, which the caller read first to say what it
 * cannot fit), projected to `extraSizes` and to every size left out, checked against the runs there.
 */
export function checkedRefit(
  records: readonly ResultRecord[],
  options: RefitOptions,
  input: RefitInput,
  t: Thresholds,
  extraSizes: readonly number[],
  analysis: AnalysisOptions,
): CheckedRefit {
  const checked = analyzeCapacityRuns(input.configs, input.frame, t, extraSizes, {
    ...analysis,
    heldOut: input.heldOut,
  })
  const missed = missedChecks(checked.stats.direct ?? [])
  if (missed.size === 0) return { ...checked, input }
  // The missed sizes join the fit (every configuration's runs there), as the suite joins them: the figures are the
  // best model the runs give, the checks and undecided questions those of the model that never saw them.
  const joinedRecords = [...new Set(input.heldOut.filter((h) => missed.has(h.gpuCount)).map((h) => h.records))]
  const joined = refitInput(records, { ...options, sizes: [...input.frame.sizes, ...joinedRecords] })
  const refit = analyzeCapacityRuns(joined.configs, joined.frame, t, extraSizes, {
    ...analysis,
    heldOut: [],
    checks: checked.stats.direct ?? [],
  })
  return {
    ...refit,
    stats: { ...refit.stats, joinedHeldOut: Math.max(...joinedRecords) },
    input: { ...joined, heldOut: input.heldOut, notes: input.notes },
  }
}
