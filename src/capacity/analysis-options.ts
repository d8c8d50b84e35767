/**
 * How a pipeline's capacity analysis judges (capacity/analyze.ts AnalysisOptions), the same for the suite, its design
 * and every reader of a run directory (`capacity`, `report`), so that one answer is computed one way: every interval
 * at the level of one of `looks` planned looks (config/capacity-targets.ts DECISION: 99.17% under the `decided` rule's
 * six looks, 95% for a measurement judged once), the zone's margin, and the pipeline's batching threshold.
 */
import { type CapacityStopRule, capacityTargets, DECISION } from '../config/capacity-targets.ts'
import { lookLevel } from '../measure/index.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import type { AnalysisOptions, CapacityStats } from './analyze.ts'
import { isKnownAnswer } from './known-answer.ts'

/** The looks a measurement plans: the `decided` design's DECISION.maxLooks, else one (judged once, at the end). */
export const plannedLooks = (rule: CapacityStopRule, designRuns: boolean) =>
  rule === 'decided' && designRuns ? DECISION.maxLooks : 1

export function analysisOptions(profile: string | undefined, looks: number): AnalysisOptions {
  return {
    level: lookLevel(DECISION.alpha, looks),
    decide: { margin: DECISION.margin, batching: capacityTargets(profile).batching },
  }
}

/**
 * The looks a stored capacity record's measurement planned: its design's, or, for one still running or interrupted
 * (a partial record), the `decided` design's (the suite's default); one for a record written before designs said,
 * and for a known answer's, whose measurement never runs a design (issue 44: its partial record, refitted at 99.17%,
 * printed beside its own record's 95%).
 */
export function recordLooks(record: ResultRecord): number {
  if (isKnownAnswer(record.name)) return 1
  if (record.state === 'partial') return plannedLooks('decided', true)
  const sequential = (record.stats as Partial<CapacityStats>).sequential
  return sequential?.maxLooks ?? 1
}

/** How a refit of stored records judges: as the capacity record among them was judged. */
export function refitOptions(records: readonly ResultRecord[]): AnalysisOptions {
  const capacity = records.find((r) => r.kind === 'capacity') ?? records[0]
  return analysisOptions(capacity?.provenance.target.profile, capacity ? recordLooks(capacity) : 1)
}
