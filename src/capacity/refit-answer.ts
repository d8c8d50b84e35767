/**
 * The answer of a refit of stored records (`virnucpro-bench capacity`): the refit's figures and decisions, read as the
 * reports read the record (capacity/record-answer.ts), so the command and every report show one answer. What a refit
 * cannot know comes from the records: whether the measurement stopped (a partial record's answer is PROVISIONAL, with
 * its one count of runs), and the design's state and what would decide each open verdict, which only the measurement
 * that ran the design recorded (a refit runs no design).
 */
import type { ResultRecord, Verdict } from '../results/schema/index.ts'
import type { CapacityStats } from './analyze.ts'
import { type AnswerStatus, type CapacityAnswer, capacityAnswer } from './answer.ts'
import { recordStatus } from './record-answer.ts'

/** One status over the records read: provisional where any is partial, its runs summed over them. */
export function refitStatus(records: readonly ResultRecord[]): AnswerStatus {
  const statuses = records.map(recordStatus)
  const sum = (f: (s: AnswerStatus) => number | null) =>
    statuses.reduce<number | null>((n, s) => (n === null || f(s) === null ? null : n + (f(s) as number)), 0)
  return {
    final: statuses.every((s) => s.final),
    keptRuns: sum((s) => s.keptRuns) ?? 0,
    plannedRuns: sum((s) => s.plannedRuns),
    hostGpus: Math.max(0, ...statuses.map((s) => s.hostGpus ?? 0)) || undefined,
  }
}

/** The design and the needs of open verdicts as the one capacity record among `records` holds them; else none. */
function recordedDesign(records: readonly ResultRecord[]): Partial<CapacityStats> {
  const capacity = records.filter((r) => r.kind === 'capacity')
  if (capacity.length !== 1) return {}
  return capacity[0]!.stats as Partial<CapacityStats>
}

/** The refit's answer, with the records' status, design and needs. */
export function refitAnswer(
  records: readonly ResultRecord[],
  stats: CapacityStats,
  verdicts: readonly Verdict[],
): CapacityAnswer {
  const recorded = recordedDesign(records)
  const needs = new Map((recorded.decisions ?? []).map((d) => [d.id, d.needs]))
  const decisions = stats.decisions?.map((d) =>
    d.state === 'undecided' && !d.needs ? { ...d, needs: needs.get(d.id) ?? null } : d,
  )
  return capacityAnswer(
    {
      ...stats,
      sequential: stats.sequential ?? recorded.sequential ?? null,
      // The measurement's own account of its held-out run (why none, which GPU counts): what an UNCHECKED says.
      ...(recorded.sizeChoice && { sizeChoice: recorded.sizeChoice }),
      decisions,
    },
    verdicts,
    refitStatus(records),
  )
}
