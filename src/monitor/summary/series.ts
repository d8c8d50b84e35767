/** Splits a log's records into per-GPU time series and groups stage windows by stage name. */
import type { MonitorRecord, SampleRecord } from '../records.ts'
import type { StageWindow } from '../stage-timeline.ts'
import type { GpuSeries } from './window-stats.ts'

const byTime = (a: { tMs: number }, b: { tMs: number }) => a.tMs - b.tMs

/** One series per sampled GPU (in the header's order), each sorted by time. */
export function collectSeries(records: readonly MonitorRecord[], sampledGpus: readonly number[]): GpuSeries[] {
  const series = new Map<number, GpuSeries>(
    sampledGpus.map((gpu) => [gpu, { gpu, samples: [], energyMj: [], powerMw: [], driverUtil: [] }]),
  )
  for (const r of records) {
    if (r.kind !== 'sample' && r.kind !== 'energy' && r.kind !== 'driver-util') continue
    const s = series.get(r.gpu)
    if (!s) continue
    if (r.kind === 'sample') s.samples.push(r)
    else if (r.kind === 'energy') s.energyMj.push({ tMs: r.tMs, value: r.energyMj })
    else s.driverUtil.push(...r.samples)
  }
  for (const s of series.values()) {
    s.samples.sort(byTime)
    s.energyMj.sort(byTime)
    s.driverUtil.sort(byTime)
    s.powerMw = s.samples
      .filter((x): x is SampleRecord & { powerMw: number } => x.powerMw !== null)
      .map((x) => ({ tMs: x.tMs, value: x.powerMw }))
  }
  return [...series.values()]
}

/** Windows grouped by stage, in order of each stage's first window. */
export function stagesOf(windows: readonly StageWindow[]): [string | null, StageWindow[]][] {
  const groups = new Map<string | null, StageWindow[]>()
  for (const w of windows) {
    const list = groups.get(w.stage) ?? []
    list.push(w)
    groups.set(w.stage, list)
  }
  return [...groups.entries()]
}
