/**
 * Scaling suite (kind `scaling`): N GPUs against 1 GPU, speedup and efficiency for the total and per stage with
 * bootstrap CIs and band verdicts (src/measure scalingReport), PERF-03 for the ESM-2 stage at the thresholds' GPU
 * count, per-worker balance of the ESM-2 stage, and the placement check. `stats` has the shape ScalingStats.
 */

import { tooShortToJudge } from '../../config/judging.ts'
import type { Thresholds } from '../../config/thresholds.ts'
import { completedRuns, type MeasuredConfiguration } from '../../engine/measure-configuration.ts'
import type { RunObservation } from '../../engine/observe-run.ts'
import { type PlacementEntry, placementEntries, placementVerdict } from '../../engine/placement.ts'
import { failureReason } from '../../engine/record.ts'
import { stageDurationMs } from '../../engine/stage-metrics.ts'
import { type Analysis, verdict } from '../../engine/verdict.ts'
import {
  type BalanceResult,
  type ScalingBand,
  type SpeedupResult,
  scalingReport,
  speedup,
  workerBalance,
} from '../../measure/index.ts'
import type { Verdict } from '../../results/schema/index.ts'

export interface ScalingStats {
  gpuCount: number
  baseline: string
  candidate: string
  total: SpeedupResult | null
  /** Stages with positive times in enough runs on both sides. */
  stages: Record<string, SpeedupResult>
  perf03: SpeedupResult | null
  /** ESM-2 per-worker balance of the N-GPU runs; null with one worker or no worker batch lines. */
  balance: BalanceResult | null
  placement: PlacementEntry[]
}

const ESM2 = 'ESM-2 Feature Extraction'

function bandFor(t: Thresholds, gpuCount: number): ScalingBand | null {
  const band = t.scalingBands[String(gpuCount)]
  return band ? { low: band[0], high: band[1] } : null
}

function stageTimes(runs: readonly RunObservation[], stage: string): number[] {
  return runs.map((o) => stageDurationMs(o.measured.run, stage)).filter((v): v is number => v !== null && v > 0)
}

/** Per worker, per run: ESM-2 stage start to that worker's last batch line. */
function workerTimes(runs: readonly RunObservation[]): { worker: string; durationsMs: number[] }[] {
  const byWorker = new Map<number, number[]>()
  for (const o of runs) {
    const start = o.measured.run.stages.find((s) => s.name === ESM2)?.startMs
    if (start == null) continue
    const last = new Map<number, number>()
    // A worker is done when it says so (`Async inference complete`), not at its last progress line: work it repeats
    // or does after its last batch line (refpipe's `imbalance` fault, say) logs no batch.
    const finished = [...o.esm2Batches, ...(o.esm2Completions ?? [])]
    for (const b of finished) if (b.worker !== null) last.set(b.worker, Math.max(last.get(b.worker) ?? 0, b.atMs))
    for (const [worker, atMs] of last) byWorker.set(worker, [...(byWorker.get(worker) ?? []), atMs - start])
  }
  return [...byWorker.entries()].sort(([a], [b]) => a - b).map(([w, d]) => ({ worker: `worker ${w}`, durationsMs: d }))
}

function speedupVerdict(id: string, title: string, r: SpeedupResult, stage: string | null): Verdict {
  const band = r.band ? `${r.band.low}x-${r.band.high}x` : null
  const ci = r.speedup.ci ? { ...r.speedup.ci } : null
  const detail = `${r.reason}; efficiency ${(r.efficiency.estimate * 100).toFixed(1)}%; medians ${r.singleGpu.medianMs.toFixed(0)} ms (n ${r.singleGpu.n}) -> ${r.multiGpu.medianMs.toFixed(0)} ms (n ${r.multiGpu.n})`
  return verdict({
    id,
    title,
    verdict: r.verdict,
    value: r.speedup.estimate,
    unit: 'x',
    ci,
    threshold: band,
    detail,
    stage,
  })
}

function balanceVerdict(balance: BalanceResult | null): Verdict {
  const base = { id: 'balance/ESM-2', title: 'per-GPU balance, ESM-2 workers', stage: ESM2, threshold: null }
  if (!balance) return verdict({ ...base, verdict: 'skipped', detail: 'no per-worker ESM-2 batch lines (one worker?)' })
  const threshold = `spread <= ${(balance.maxSpread * 100).toFixed(0)}%`
  return verdict({
    ...base,
    threshold,
    verdict: balance.verdict,
    value: balance.spread * 100,
    unit: '%',
    detail: balance.reason,
  })
}

/**
 * Scaling of `multi` (on `gpuCount` GPUs or workers) over `single`.
 * @throws MeasureInputError only for invalid statistics input that the filtering here should have removed.
 */
export function analyzeScaling(
  single: MeasuredConfiguration,
  multi: MeasuredConfiguration,
  gpuCount: number,
  t: Thresholds,
  seed = `scaling/${gpuCount}`,
): Analysis<ScalingStats> {
  const a = completedRuns(single)
  const b = completedRuns(multi)
  const placement = placementEntries([single, multi])
  const workers = workerTimes(b)
  const balance = workers.length >= 2 ? workerBalance(workers, t.balance.maxSpread) : null
  const stats: ScalingStats = {
    gpuCount,
    baseline: single.config.label,
    candidate: multi.config.label,
    total: null,
    stages: {},
    perf03: null,
    balance,
    placement,
  }
  const verdicts: Verdict[] = []
  if (a.length === 0 || b.length === 0) {
    // Nothing measured on a side is no speedup at all, not a slow one: `error`, with the failure that caused it.
    const counts = `completed measured runs: ${single.config.label} ${a.length}, ${multi.config.label} ${b.length}`
    const why = failureReason([single, multi])
    const detail = why ? `${counts}; ${why}` : counts
    verdicts.push(
      verdict({ id: `scaling/${gpuCount}/total`, title: `speedup, ${gpuCount} GPUs`, verdict: 'error', detail }),
    )
    if (gpuCount === t.perf03.gpus)
      verdicts.push(
        verdict({
          id: 'perf03',
          title: `PERF-03 ${t.perf03.stage} on ${gpuCount} GPUs`,
          verdict: 'error',
          detail,
          stage: t.perf03.stage,
        }),
      )
    return { stats, verdicts: [...verdicts, placementVerdict(placement)] }
  }
  const stages: Record<string, { singleGpuMs: number[]; multiGpuMs: number[] }> = {}
  const names = new Set(a.flatMap((o) => o.measured.run.stages.map((s) => s.name)))
  for (const name of names) {
    const pair = { singleGpuMs: stageTimes(a, name), multiGpuMs: stageTimes(b, name) }
    if (pair.singleGpuMs.length > 0 && pair.multiGpuMs.length > 0) stages[name] = pair
  }
  const total = { singleGpuMs: a.map((o) => o.measured.run.wallMs), multiGpuMs: b.map((o) => o.measured.run.wallMs) }
  const report = scalingReport({ gpuCount, total, stages }, { seed, band: bandFor(t, gpuCount) })
  stats.total = report.total
  stats.stages = report.stages
  const esm = stages[t.perf03.stage]
  if (gpuCount === t.perf03.gpus && esm)
    stats.perf03 = speedup(esm.singleGpuMs, esm.multiGpuMs, gpuCount, {
      band: { low: t.perf03.minSpeedup, high: gpuCount },
    })
  verdicts.push(speedupVerdict(`scaling/${gpuCount}/total`, `speedup, ${gpuCount} GPUs, total`, report.total, null))
  for (const [name, r] of Object.entries(report.stages)) {
    const v = speedupVerdict(`scaling/${gpuCount}/${name}`, `speedup, ${gpuCount} GPUs, ${name}`, r, name)
    const short = tooShortToJudge(Math.min(r.singleGpu.medianMs, r.multiGpu.medianMs))
    verdicts.push(short ? { ...v, verdict: 'skipped', detail: `${short}; ${v.detail}` } : v)
  }
  if (stats.perf03)
    verdicts.push(
      speedupVerdict('perf03', `PERF-03 ${t.perf03.stage} on ${gpuCount} GPUs`, stats.perf03, t.perf03.stage),
    )
  verdicts.push(balanceVerdict(balance), placementVerdict(placement))
  return { stats, verdicts }
}
