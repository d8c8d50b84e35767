/** Per-stage, per-GPU monitor figures across repeated runs (from each run's MonitorSummary). */

import type { MetricName } from '../monitor/summary/metric-stats.ts'
import type { MonitorSummary, StageSummary } from '../monitor/summary/summarize.ts'
import { type EstimateStat, estimate, toStat } from './stage-metrics.ts'

export interface StageGpuStats {
  gpu: number
  /** Median over runs of the stage's mean utilization (NVML "GPU busy"), %. */
  utilPct: EstimateStat | null
  /** GPM: SM activity and tensor-pipe activity, % (null where the GPU has no GPM). */
  gpmSmUtilPct: EstimateStat | null
  gpmTensorUtilPct: EstimateStat | null
  /** Largest device memory seen in the stage over all runs. */
  peakMemUsedBytes: number | null
  energyJ: EstimateStat | null
  throttledSamples: number
  samples: number
}

function stageOf(summary: MonitorSummary | null, stage: string): StageSummary | undefined {
  return summary?.stages.find((s) => s.stage === stage)
}

function metricMeans(summaries: readonly (MonitorSummary | null)[], stage: string, gpu: number, name: MetricName) {
  return summaries.map((s) => stageOf(s, stage)?.gpus.find((g) => g.gpu === gpu)?.metrics[name]?.mean ?? null)
}

/** Per requested GPU, the stage's figures over the runs' summaries. */
export function stageGpuStats(summaries: readonly (MonitorSummary | null)[], stage: string): StageGpuStats[] {
  const gpus = [...new Set(summaries.flatMap((s) => stageOf(s, stage)?.gpus.map((g) => g.gpu) ?? []))].sort(
    (a, b) => a - b,
  )
  return gpus.map((gpu) => {
    const windows = summaries.map((s) => stageOf(s, stage)?.gpus.find((g) => g.gpu === gpu) ?? null)
    const peaks = windows.map((w) => w?.peakMemUsedBytes ?? null).filter((v): v is number => v !== null)
    const where = `${stage} GPU ${gpu}`
    return {
      gpu,
      utilPct: toStat(estimate(metricMeans(summaries, stage, gpu, 'utilPct'), `${where} utilPct`)),
      gpmSmUtilPct: toStat(estimate(metricMeans(summaries, stage, gpu, 'gpmSmUtilPct'), `${where} gpmSmUtilPct`)),
      gpmTensorUtilPct: toStat(
        estimate(metricMeans(summaries, stage, gpu, 'gpmTensorUtilPct'), `${where} gpmTensorUtilPct`),
      ),
      peakMemUsedBytes: peaks.length > 0 ? Math.max(...peaks) : null,
      energyJ: toStat(
        estimate(
          windows.map((w) => w?.energyJ ?? null),
          `${where} energyJ`,
        ),
      ),
      throttledSamples: windows.reduce((sum, w) => sum + (w?.throttle.samples ?? 0), 0),
      samples: windows.reduce((sum, w) => sum + (w?.sampleCount ?? 0), 0),
    }
  })
}

/** Median over runs of the stage's J per item (the monitor divides the stage energy by the stage's item count). */
export function stageJoulesPerItem(summaries: readonly (MonitorSummary | null)[], stage: string): EstimateStat | null {
  return toStat(
    estimate(
      summaries.map((s) => stageOf(s, stage)?.jPerSequence ?? null),
      `${stage} J per item`,
    ),
  )
}
