/**
 * Sweep analysis (kind `sweep`): every grid setting's wall time and throughput with CIs, and the best setting. The
 * best is `inconclusive` when its CI overlaps the runner-up's (the runs cannot tell them apart). `stats` has the
 * shape SweepStats.
 */

import { completedRuns, type MeasuredConfiguration } from '../../engine/measure-configuration.ts'
import { type EstimateStat, estimate, toStat } from '../../engine/stage-metrics.ts'
import { type Analysis, verdict } from '../../engine/verdict.ts'
import type { Verdict } from '../../results/schema/index.ts'

export interface SweepStats {
  settings: {
    label: string
    extraArgs: string[]
    runs: number
    wallMs: EstimateStat | null
    sequencesPerS: EstimateStat | null
    failure: string | null
  }[]
  best: string | null
  runnerUp: string | null
}

export function analyzeSweep(settings: readonly MeasuredConfiguration[]): Analysis<SweepStats> {
  const rows = settings.map((m) => {
    const runs = completedRuns(m)
    const rate = runs.map((o) => {
      const n = o.measured.run.summary?.sequencesProcessed
      return n ? (n * 1000) / o.measured.run.wallMs : null
    })
    return {
      label: m.config.label,
      extraArgs: m.config.extraArgs ?? [],
      runs: runs.length,
      wallMs: toStat(
        estimate(
          runs.map((o) => o.measured.run.wallMs),
          `${m.config.label} wallMs`,
        ),
      ),
      sequencesPerS: toStat(estimate(rate, `${m.config.label} seq/s`)),
      failure: m.failure ? `${m.failure.exitClass}: ${m.failure.reason}` : null,
    }
  })
  const ranked = rows.filter((r) => r.wallMs !== null).sort((a, b) => a.wallMs!.median - b.wallMs!.median)
  const [best, second] = ranked
  const stats: SweepStats = { settings: rows, best: best?.label ?? null, runnerUp: second?.label ?? null }
  const base = { id: 'sweep/best', title: 'best setting of the sweep', unit: 'ms' }
  const failed = rows.filter((r) => r.failure).map((r) => `${r.label} (${r.failure})`)
  if (!best) {
    const detail = `no setting completed a run${failed.length ? `; failed: ${failed.join(', ')}` : ''}`
    return { stats, verdicts: [verdict({ ...base, verdict: 'error', detail })] }
  }
  const overlap =
    second && (best.wallMs!.ci?.high ?? best.wallMs!.median) >= (second.wallMs!.ci?.low ?? second.wallMs!.median)
  const detail = `${best.label}: median ${best.wallMs!.median.toFixed(0)} ms${second ? `; runner-up ${second.label} ${second.wallMs!.median.toFixed(0)} ms${overlap ? ' (CIs overlap)' : ''}` : ''}${failed.length ? `; failed: ${failed.join(', ')}` : ''}`
  const verdicts: Verdict[] = [
    verdict({
      ...base,
      verdict: overlap ? 'inconclusive' : 'pass',
      value: best.wallMs!.median,
      ci: best.wallMs!.ci,
      threshold: 'CI clear of the runner-up',
      detail,
    }),
  ]
  return { stats, verdicts }
}
