/**
 * The refit as JSON (`capacity --json FILE`): the answer first (capacity/answer.ts: status, sentence, figures per GPU
 * count, k against 1, the decisions, the definitions; the same object the reports read), then per configuration its
 * measured sizes, the wall time at each projected size and each GPU stage's utilization there, each with its CI (null
 * bounds without one), and the verdicts with the ids of the capacity record (provisional where the answer is), and the
 * settings studies of the directories read (report/analyses/study.ts: the object summary.json's `study` holds; no
 * entries without a study record). Bumped `schemaVersion` when the shape changes: 2 added `answer` and each verdict's
 * `provisional`; 3 added `study`.
 */

import type { CapacityAnswer } from '../capacity/answer.ts'
import type { HeldOutCheck, SpeedupCheck } from '../capacity/held-out.ts'
import type { CapacityStats } from '../capacity/index.ts'
import type { SizeEstimate } from '../measure/index.ts'
import type { StudyReport } from '../report/analyses/study.ts'
import type { Verdict } from '../results/schema/index.ts'

export const CAPACITY_JSON_SCHEMA_VERSION = 3

const interval = (e: SizeEstimate) => ({ estimate: e.estimate, low: e.ci?.low ?? null, high: e.ci?.high ?? null })

/** The JSON document of a refit. */
export function capacityJson(
  answer: CapacityAnswer,
  stats: CapacityStats,
  verdicts: readonly Verdict[],
  notes: readonly string[],
  checks: { sizes: readonly HeldOutCheck[]; speedups: readonly SpeedupCheck[] } = { sizes: [], speedups: [] },
  study: StudyReport = { entries: [] },
) {
  return {
    schemaVersion: CAPACITY_JSON_SCHEMA_VERSION,
    answer,
    study,
    input: stats.input,
    covers: stats.covers,
    notes,
    configurations: stats.configurations.map((c) => ({
      gpuCount: c.gpuCount,
      label: c.label,
      measured: c.sizes.map((s) => ({
        records: s.records,
        sequences: s.sequences,
        runs: s.runs,
        medianWallMs: s.medianWallMs,
      })),
      perSequenceMs: interval(c.wall.msPerSequence),
      fixedMs: interval(c.wall.fixedMs),
      at: c.at.map((a) => ({ sequences: a.sequences, wallMs: interval(a.wallMs), dominant: a.dominant ?? [] })),
      /** Per stage with a steady part read inside the runs: from which source, in how many of them. */
      steady: c.steady.map((r) => ({ stage: r.stage, source: r.source, runs: r.runs, of: r.of })),
      utilization: c.stages.flatMap((s) =>
        s.utilAt.map((u) => ({
          stage: s.stage,
          sequences: u.sequences,
          pct: u.utilPct ? interval(u.utilPct) : null,
          busyModelPct: u.busyModelPct ? interval(u.busyModelPct) : null,
          disagreement: u.disagreement,
        })),
      ),
      support: {
        supported: c.support.supported,
        problems: c.support.problems,
        nextRecords: c.support.nextRecords,
      },
    })),
    notFitted: stats.notFitted,
    heldOut: checks.sizes.map((h) => ({
      label: h.label,
      gpuCount: h.gpuCount,
      records: h.records,
      sequences: h.sequences,
      runs: h.runs,
      medianWallMs: h.medianWallMs,
      projectedMs: h.projectedMs ? interval(h.projectedMs) : null,
      errorPct: h.errorPct,
      insideCi: h.insideCi,
    })),
    heldOutSpeedups: checks.speedups.map((s) => ({
      gpuCount: s.gpuCount,
      sequences: s.sequences,
      measured: s.measured,
      projected: s.projected ? interval(s.projected) : null,
      insideCi: s.insideCi,
    })),
    verdicts: verdicts.map((v) => ({
      id: v.id,
      verdict: v.verdict,
      value: v.value,
      unit: v.unit,
      ci: v.ci ? { low: v.ci.low, high: v.ci.high } : null,
      threshold: v.threshold,
      decision: v.decision ?? null,
      /** Judged on the runs a measurement not yet stopped kept: never a final pass or fail. */
      provisional: !answer.status.final,
    })),
  }
}
