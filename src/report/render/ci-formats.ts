/**
 * The figures of the CI benchmark formats (pure), and github-action-benchmark `customSmallerIsBetter` entries; the
 * Bencher Metric Format writer is bmf.ts. Both carry the median wall time of every run group and of each of its stages,
 * and every vitest benchmark's latency.
 */
import type { Report } from '../analyses/build.ts'
import { jsonArrayWriter } from './json-array.ts'

export interface GithubBenchmarkEntry {
  name: string
  unit: string
  value: number
  range?: string
  extra?: string
}

/** One figure of both formats, in ms. */
export interface Figure {
  name: string
  valueMs: number
  lowMs: number | null
  highMs: number | null
  extra: string
}

/**
 * Hands every figure both formats carry to `visit`, one at a time: a large run has ~2·10^5 of them, and a writer that
 * turns each into text at once lets it die young instead of holding them all.
 */
export function eachCiFigure(report: Report, visit: (figure: Figure) => void): void {
  const withCurves = new Set(report.scaling.curves.map((c) => c.recordId))
  for (const curve of report.scaling.curves)
    for (const p of curve.points)
      visit({
        name: `${curve.recordId}/${p.gpuCount} GPU/${curve.scope}`,
        valueMs: p.medianMs,
        lowMs: p.ci?.low ?? null,
        highMs: p.ci?.high ?? null,
        extra: `${p.runs} runs, median with 95% CI`,
      })
  // Under each record's own name, as when every record had its own group: a figure's history stays under its name.
  for (const g of report.bottleneck.groups)
    for (const recordId of g.recordIds) {
      // A scaling record's groups are already in as curve points (median with CI), which beat a bare mean.
      if (withCurves.has(recordId)) continue
      visit({
        name: `${recordId}/${g.group}/total`,
        valueMs: g.wallMs,
        lowMs: null,
        highMs: null,
        extra: `${g.runs} runs, mean`,
      })
      for (const s of g.stages)
        visit({
          name: `${recordId}/${g.group}/${s.stage}`,
          valueMs: s.durationMs,
          lowMs: null,
          highMs: null,
          extra: `${g.runs} runs, mean`,
        })
    }
  for (const b of report.benchmarks) {
    const half = (b.latencyMs.mean * b.latencyMs.rme) / 100
    visit({
      name: `bench/${b.name}`,
      valueMs: b.latencyMs.mean,
      lowMs: b.latencyMs.mean - half,
      highMs: b.latencyMs.mean + half,
      extra: `${b.samples} samples, ${b.project}`,
    })
  }
}

/** Every figure, in the order the formats list them. */
export function ciFigures(report: Report): Figure[] {
  const figures: Figure[] = []
  eachCiFigure(report, (f) => figures.push(f))
  return figures
}

/** github-benchmark.json's text: one `customSmallerIsBetter` entry per figure (compact, newline-terminated). */
export function githubBenchmarkJson(report: Report): string {
  const entries = jsonArrayWriter<GithubBenchmarkEntry>()
  eachCiFigure(report, (f) => {
    const entry: GithubBenchmarkEntry = { name: f.name, unit: 'ms', value: f.valueMs, extra: f.extra }
    if (f.lowMs !== null && f.highMs !== null) entry.range = `± ${((f.highMs - f.lowMs) / 2).toFixed(3)}`
    entries.push(entry)
  })
  return `${entries.text()}\n`
}
