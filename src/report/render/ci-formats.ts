/**
 * CI benchmark formats (pure): github-action-benchmark `customSmallerIsBetter` entries and Bencher Metric Format.
 * Both carry the median wall time of every run group and of each of its stages, and every vitest benchmark's latency.
 */
import type { Report } from '../analyses/build.ts'

export interface GithubBenchmarkEntry {
  name: string
  unit: string
  value: number
  range?: string
  extra?: string
}

export type BmfMetrics = Record<string, Record<string, { value: number; lower_value?: number; upper_value?: number }>>

interface Figure {
  name: string
  valueMs: number
  lowMs: number | null
  highMs: number | null
  extra: string
}

function figures(report: Report): Figure[] {
  const out: Figure[] = []
  for (const curve of report.scaling.curves)
    for (const p of curve.points)
      out.push({
        name: `${curve.recordId}/${p.gpuCount} GPU/${curve.scope}`,
        valueMs: p.medianMs,
        lowMs: p.ci?.low ?? null,
        highMs: p.ci?.high ?? null,
        extra: `${p.runs} runs, median with 95% CI`,
      })
  for (const g of report.bottleneck.groups) {
    if (report.scaling.curves.some((c) => c.recordId === g.recordId)) continue
    out.push({
      name: `${g.recordId}/${g.group}/total`,
      valueMs: g.wallMs,
      lowMs: null,
      highMs: null,
      extra: `${g.runs} runs, mean`,
    })
    for (const s of g.stages)
      out.push({
        name: `${g.recordId}/${g.group}/${s.stage}`,
        valueMs: s.durationMs,
        lowMs: null,
        highMs: null,
        extra: `${g.runs} runs, mean`,
      })
  }
  for (const b of report.benchmarks) {
    const half = (b.latencyMs.mean * b.latencyMs.rme) / 100
    out.push({
      name: `bench/${b.name}`,
      valueMs: b.latencyMs.mean,
      lowMs: b.latencyMs.mean - half,
      highMs: b.latencyMs.mean + half,
      extra: `${b.samples} samples, ${b.project}`,
    })
  }
  return out
}

export function githubBenchmark(report: Report): GithubBenchmarkEntry[] {
  return figures(report).map((f) => {
    const entry: GithubBenchmarkEntry = { name: f.name, unit: 'ms', value: f.valueMs, extra: f.extra }
    if (f.lowMs !== null && f.highMs !== null) entry.range = `± ${((f.highMs - f.lowMs) / 2).toFixed(3)}`
    return entry
  })
}

const NS_PER_MS = 1e6

/** Bencher's built-in `latency` measure is in nanoseconds; utilization rows use a `gpu-util-pct` measure. */
export function bencherMetrics(report: Report): BmfMetrics {
  const out: BmfMetrics = {}
  for (const f of figures(report)) {
    const latency: BmfMetrics[string][string] = { value: f.valueMs * NS_PER_MS }
    if (f.lowMs !== null && f.highMs !== null) {
      latency.lower_value = f.lowMs * NS_PER_MS
      latency.upper_value = f.highMs * NS_PER_MS
    }
    out[f.name] = { latency }
  }
  for (const r of report.perf02.rows)
    if (r.utilMeanPct !== null)
      out[`perf02/${r.recordId}/${r.group}/${r.stage}/gpu${r.gpu}`] = { 'gpu-util-pct': { value: r.utilMeanPct } }
  return out
}
