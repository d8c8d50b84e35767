/**
 * Stage throughput suite (kind `stage`): per-stage seq/s and tok/s for all nine stages from real pipeline runs, with
 * per-stage GPU utilization, GPM SM and tensor activity, memory, energy per item; PERF-02 per GPU for the embedding
 * stages and bottleneck flags. `stats` has the shape StageThroughputStats.
 */
import type { Thresholds } from '../../config/thresholds.ts'
import { completedRuns, type MeasuredConfiguration } from '../../engine/measure-configuration.ts'
import { failureReason } from '../../engine/record.ts'
import { type StageGpuStats, stageGpuStats, stageJoulesPerItem } from '../../engine/stage-gpu.ts'
import { type EstimateStat, estimate, stageRunFigures, toStat } from '../../engine/stage-metrics.ts'
import { type Analysis, judgeAtLeast, verdict } from '../../engine/verdict.ts'
import { PIPELINE_STAGES } from '../../pipeline/stages.ts'
import type { Verdict } from '../../results/schema/index.ts'

export interface StageThroughputEntry {
  stage: string
  durationMs: EstimateStat | null
  /** Median stage time / median total wall time. */
  shareOfTotal: number | null
  /** Items the stage handled (median over runs): sequences, chunks, frames, proteins... as the log names them. */
  items: number | null
  itemsPerS: EstimateStat | null
  tokensPerS: EstimateStat | null
  jPerItem: EstimateStat | null
  gpus: StageGpuStats[]
}

export interface StageThroughputStats {
  configuration: string
  measuredRuns: number
  totalWallMs: EstimateStat | null
  sequencesProcessed: number | null
  monitored: boolean
  stages: StageThroughputEntry[]
}

function stageEntry(m: MeasuredConfiguration, stage: string, totalMs: number | null): StageThroughputEntry {
  const runs = completedRuns(m)
  const figures = runs.map((o) => stageRunFigures(o.measured.run).find((f) => f.stage === stage))
  const rate = (n: number | null | undefined, ms: number | null | undefined) =>
    n != null && ms ? (n * 1000) / ms : null
  const duration = estimate(
    figures.map((f) => f?.durationMs ?? null),
    `${stage} durationMs`,
  )
  const summaries = runs.map((o) => o.measured.gpu)
  return {
    stage,
    durationMs: toStat(duration),
    shareOfTotal: duration && totalMs ? duration.median / totalMs : null,
    items:
      estimate(
        figures.map((f) => f?.items ?? null),
        `${stage} items`,
      )?.median ?? null,
    itemsPerS: toStat(
      estimate(
        figures.map((f) => rate(f?.items, f?.durationMs)),
        `${stage} items/s`,
      ),
    ),
    tokensPerS: toStat(
      estimate(
        figures.map((f) => rate(f?.tokens, f?.durationMs)),
        `${stage} tokens/s`,
      ),
    ),
    jPerItem: stageJoulesPerItem(summaries, stage),
    gpus: stageGpuStats(summaries, stage),
  }
}

/** Stage figures over the completed measured runs of `m`. */
export function stageThroughputStats(m: MeasuredConfiguration): StageThroughputStats {
  const runs = completedRuns(m)
  const total = estimate(
    runs.map((o) => o.measured.run.wallMs),
    'total wallMs',
  )
  const logged = runs.flatMap((o) => o.measured.run.stages.map((s) => s.name))
  const names = [
    ...PIPELINE_STAGES,
    ...new Set(logged.filter((n) => !(PIPELINE_STAGES as readonly string[]).includes(n))),
  ]
  return {
    configuration: m.config.label,
    measuredRuns: runs.length,
    totalWallMs: toStat(total),
    sequencesProcessed: runs[0]?.measured.run.summary?.sequencesProcessed ?? null,
    monitored: runs.some((o) => o.measured.gpu !== null),
    stages: names.map((stage) => stageEntry(m, stage, total?.median ?? null)),
  }
}

function perf02Verdicts(stats: StageThroughputStats, t: Thresholds): Verdict[] {
  const out: Verdict[] = []
  for (const stage of t.perf02.stages) {
    const entry = stats.stages.find((s) => s.stage === stage)
    const base = { title: `PERF-02 ${stage} utilization`, unit: '%', threshold: `>= ${t.perf02.minUtilPct}%`, stage }
    if (!stats.monitored || !entry || entry.gpus.length === 0) {
      const why = stats.monitored ? 'no monitor samples in this stage' : 'no GPU monitor for these runs'
      out.push(verdict({ ...base, id: `perf02/${stage}`, verdict: 'skipped', detail: why }))
      continue
    }
    for (const g of entry.gpus) {
      const id = `perf02/${stage}/gpu${g.gpu}`
      if (!g.utilPct) {
        out.push(
          verdict({
            ...base,
            id,
            gpu: g.gpu,
            verdict: 'inconclusive',
            detail: `no utilization samples on GPU ${g.gpu} in the stage window`,
          }),
        )
        continue
      }
      const v = judgeAtLeast(g.utilPct.median, g.utilPct.ci, t.perf02.minUtilPct)
      const detail = `median over ${g.utilPct.n} run(s) of the stage-window mean utilization, ${g.samples} samples; GPM SM ${g.gpmSmUtilPct?.median.toFixed(1) ?? 'n/a'}%, tensor ${g.gpmTensorUtilPct?.median.toFixed(1) ?? 'n/a'}%`
      out.push(verdict({ ...base, id, gpu: g.gpu, verdict: v, value: g.utilPct.median, ci: g.utilPct.ci, detail }))
    }
  }
  return out
}

function bottleneckVerdict(entry: StageThroughputEntry, t: Thresholds): Verdict {
  const reasons: string[] = []
  const maxShare = t.bottleneck.maxStageShare
  if (entry.shareOfTotal !== null && entry.shareOfTotal > maxShare)
    reasons.push(`${(entry.shareOfTotal * 100).toFixed(1)}% of the run (> ${maxShare * 100}%)`)
  if (t.perf02.stages.includes(entry.stage))
    for (const g of entry.gpus)
      if (g.utilPct && g.utilPct.median < t.bottleneck.minGpuUtilPct)
        reasons.push(`GPU ${g.gpu} at ${g.utilPct.median.toFixed(1)}% utilization (< ${t.bottleneck.minGpuUtilPct}%)`)
  const throttled = entry.gpus.reduce((sum, g) => sum + g.throttledSamples, 0)
  if (throttled > 0) reasons.push(`${throttled} throttled sample(s)`)
  return verdict({
    id: `bottleneck/${entry.stage}`,
    title: `bottleneck check, ${entry.stage}`,
    verdict: entry.durationMs === null ? 'skipped' : reasons.length > 0 ? 'flag' : 'pass',
    value: entry.shareOfTotal === null ? null : entry.shareOfTotal * 100,
    unit: '% of run',
    threshold: `share <= ${maxShare * 100}%, GPU util >= ${t.bottleneck.minGpuUtilPct}%, no throttling`,
    detail: entry.durationMs === null ? 'stage not run (skipped or absent)' : reasons.join('; ') || 'within every rule',
    stage: entry.stage,
  })
}

/** Stats and verdicts (PERF-02 per stage and GPU, a bottleneck check per stage). */
export function analyzeStageThroughput(m: MeasuredConfiguration, t: Thresholds): Analysis<StageThroughputStats> {
  const stats = stageThroughputStats(m)
  if (stats.measuredRuns === 0) {
    const why = failureReason([m])
    const detail = `no measured run completed${why ? `: ${why}` : ''}`
    return { stats, verdicts: [verdict({ id: 'stage/runs', title: 'stage throughput', verdict: 'error', detail })] }
  }
  return { stats, verdicts: [...perf02Verdicts(stats, t), ...stats.stages.map((e) => bottleneckVerdict(e, t))] }
}
