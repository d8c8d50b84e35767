/**
 * Metrics read from a record's `stats`, whose shape each suite documents (src/suites/stage/stage.ts StageThroughputStats,
 * src/capacity/analyze.ts CapacityStats) and the result schema leaves open. Each reader checks only the slice it reads
 * (zod, loose) and gives nothing for a record whose stats are not that shape: an older or newer suite's record never
 * breaks `history add`, it just brings fewer metrics. Pure.
 */
import { z } from 'zod'
import { stageRunFigures } from '../engine/stage-metrics.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import { capacityRateMetric, capacityWallMetric, type MetricFigure, stageRateMetric } from './metric-names.ts'

const Ci = z.looseObject({ low: z.number(), high: z.number() })
const EstimateStat = z.looseObject({ median: z.number(), n: z.number().int(), ci: Ci.nullable() })
const SizeEstimate = z.looseObject({ estimate: z.number(), ci: Ci.nullable() })

const StageStats = z.looseObject({
  configuration: z.string(),
  stages: z.array(z.looseObject({ stage: z.string(), itemsPerS: EstimateStat.nullable() })),
})

const CapacityStats = z.looseObject({
  configurations: z.array(
    z.looseObject({
      gpuCount: z.number().int(),
      at: z.array(z.looseObject({ sequences: z.number(), wallMs: SizeEstimate })),
      stages: z.array(z.looseObject({ stage: z.string(), msPerSequence: SizeEstimate })),
    }),
  ),
})

const HOUR_MS = 3_600_000

/** Items per second of `stage` in each counted run of the record (the runs its stats' median is taken over). */
function stageRatesOfRuns(record: ResultRecord, stage: string): number[] {
  return record.runs.flatMap((m) => {
    if (m.warmup || m.run.exitClass !== 'completed') return []
    const f = stageRunFigures(m.run).find((x) => x.stage === stage)
    return f?.items != null && f.durationMs ? [(f.items * 1000) / f.durationMs] : []
  })
}

/** ESM-2 and DNABERT-S (the record's PERF-02 stages): items per second of each, per setup, from stage records. */
export function stageRateMetrics(record: ResultRecord): MetricFigure[] {
  if (record.kind !== 'stage') return []
  const parsed = StageStats.safeParse(record.stats)
  if (!parsed.success) return []
  const { configuration, stages } = parsed.data
  return stages.flatMap(({ stage, itemsPerS }) =>
    itemsPerS && record.thresholds.perf02.stages.includes(stage)
      ? [
          {
            name: stageRateMetric(configuration, stage),
            unit: 'items/s',
            value: itemsPerS.median,
            ci: itemsPerS.ci && { low: itemsPerS.ci.low, high: itemsPerS.ci.high },
            n: itemsPerS.n,
            verdict: null,
            samples: stageRatesOfRuns(record, stage),
          },
        ]
      : [],
  )
}

/** 1000 / (ms per sequence), its CI inverted; no CI when the interval reaches zero (a rate without an upper bound). */
function perSecond(msPerSequence: z.infer<typeof SizeEstimate>): Pick<MetricFigure, 'value' | 'ci'> | null {
  if (!(msPerSequence.estimate > 0)) return null
  const { ci } = msPerSequence
  return {
    value: 1000 / msPerSequence.estimate,
    ci: ci && ci.low > 0 ? { low: 1000 / ci.high, high: 1000 / ci.low } : null,
  }
}

/**
 * Per capacity configuration: the projected wall time at the production size (perf01.productionSequences, 6,000,000
 * by default) in hours, and the embedding stages' steady-state sequences per second.
 */
export function capacityMetrics(record: ResultRecord): MetricFigure[] {
  if (record.kind !== 'capacity') return []
  const parsed = CapacityStats.safeParse(record.stats)
  if (!parsed.success) return []
  const production = record.thresholds.perf01.productionSequences
  const out: MetricFigure[] = []
  for (const c of parsed.data.configurations) {
    const at = c.at.find((a) => a.sequences === production)
    if (at && Number.isFinite(at.wallMs.estimate)) {
      const { estimate, ci } = at.wallMs
      out.push({
        name: capacityWallMetric(c.gpuCount, production),
        unit: 'h',
        value: estimate / HOUR_MS,
        ci: ci && { low: ci.low / HOUR_MS, high: ci.high / HOUR_MS },
        n: null,
        verdict: null,
        samples: null,
      })
    }
    for (const s of c.stages) {
      const rate = record.thresholds.perf02.stages.includes(s.stage) ? perSecond(s.msPerSequence) : null
      if (rate)
        out.push({
          name: capacityRateMetric(c.gpuCount, s.stage),
          unit: 'seq/s',
          ...rate,
          n: null,
          verdict: null,
          samples: null,
        })
    }
  }
  return out
}
