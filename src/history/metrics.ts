/**
 * The headline metrics of one run's result records, as the history stores them (names and directions:
 * metric-names.ts). Verdicts bring their own value, CI and state; run groups bring their wall time and energy per
 * sequence as medians with CIs over their counted runs (src/measure, grouped as the reports group them); stage and
 * capacity records bring the rates and projections their stats carry. Pure: records in, metrics out.
 */
import { medianWithCi, toSorted } from '../measure/index.ts'
import { runGroups } from '../results/runs.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import { betterOf, energyMetric, type HeadlineMetric, type MetricFigure, wallMetric } from './metric-names.ts'
import { capacityMetrics, stageRateMetrics } from './stats-metrics.ts'

export type { HeadlineMetric, MetricFigure }

const isFiniteNumber = (v: number | null | undefined): v is number => typeof v === 'number' && Number.isFinite(v)

function verdictMetrics(record: ResultRecord): MetricFigure[] {
  return record.verdicts.flatMap((v) =>
    isFiniteNumber(v.value)
      ? [
          {
            name: v.id,
            unit: v.unit,
            value: v.value,
            ci: v.ci ? { low: v.ci.low, high: v.ci.high } : null,
            n: null,
            verdict: v.verdict,
            samples: null,
          },
        ]
      : [],
  )
}

/** Median with CI of the finite values, as a figure; null when there is none. */
function medianFigure(name: string, unit: string, values: readonly (number | null)[]): MetricFigure | null {
  const present = values.filter(isFiniteNumber)
  if (present.length === 0) return null
  const estimate = medianWithCi(toSorted(present, name))
  const ci = estimate.ci ? { low: estimate.ci.low, high: estimate.ci.high } : null
  return { name, unit, value: estimate.median, ci, n: estimate.n, verdict: null, samples: present }
}

/** Wall time and energy per sequence of each run group, attributed to the first record holding the group. */
function groupMetrics(records: readonly ResultRecord[]): Map<string, MetricFigure[]> {
  const byRecord = new Map<string, MetricFigure[]>()
  for (const group of runGroups(records)) {
    const completed = group.runs.filter((r) => r.measured.run.exitClass === 'completed')
    if (completed.length === 0) continue
    const setup = group.runs[0]!.group
    const figures = [
      medianFigure(
        wallMetric(setup),
        'ms',
        completed.map((r) => r.measured.run.wallMs),
      ),
      medianFigure(
        energyMetric(setup),
        'J/seq',
        completed.map((r) => r.measured.gpu?.energy.jPerSequence ?? null),
      ),
    ].filter((f): f is MetricFigure => f !== null)
    const list = byRecord.get(group.record.id) ?? []
    byRecord.set(group.record.id, [...list, ...figures])
  }
  return byRecord
}

/**
 * Every headline metric of the records of one run, record by record in the records' order. Within a record a name is
 * kept once, the first source winning in this order: verdicts, run groups, stats (so a capacity verdict and the same
 * projection read from the stats are one metric, the verdict's, with its state).
 */
export function headlineMetrics(records: readonly ResultRecord[]): HeadlineMetric[] {
  const groups = groupMetrics(records)
  const out: HeadlineMetric[] = []
  for (const record of records) {
    const seen = new Set<string>()
    const figures = [
      ...verdictMetrics(record),
      ...(groups.get(record.id) ?? []),
      ...stageRateMetrics(record),
      ...capacityMetrics(record),
    ]
    for (const figure of figures) {
      if (seen.has(figure.name)) continue
      seen.add(figure.name)
      out.push({ recordId: record.id, ...figure, better: betterOf(figure.unit) })
    }
  }
  return out
}
