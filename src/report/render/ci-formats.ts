/**
 * The figures of the CI benchmark formats (pure), and github-action-benchmark `customSmallerIsBetter` entries; the
 * Bencher Metric Format writer is bmf.ts. Both carry the median wall time of every run group and of each of its stages,
 * and every vitest benchmark's latency. github-action-benchmark shows `range` as free text beside the value
 * ("5.371 ms (75% CI [4.740, 36.140])"), so it states the interval itself: a median's CI is not centred on the median,
 * and "± half its width" implied bounds that are not the CI's (a negative lower one, even). No CI, no `range`.
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
  /** What [lowMs, highMs] is, as a reader sees it: `95% CI`, `75% CI` (3 runs' [min, max]); null without one. */
  ciLabel: string | null
  extra: string
}

const NOMINAL_LEVEL = 0.95
const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`
const percent = (fraction: number) => `${Number((fraction * 100).toFixed(1))}%`

/** A median's CI label: its exact coverage when a few runs cannot reach 95% (order statistic), else 95%. */
function medianCiLabel(coverage: number | null): string {
  return coverage !== null && coverage < NOMINAL_LEVEL ? `${percent(coverage)} CI` : `${percent(NOMINAL_LEVEL)} CI`
}

function curveFigures(report: Report, visit: (figure: Figure) => void): void {
  for (const curve of report.scaling.curves)
    for (const p of curve.points) {
      const ciLabel = p.ci ? medianCiLabel(p.ciCoverage) : null
      const short = ciLabel && ciLabel !== '95% CI' ? ` (${plural(p.runs, 'run')} cannot give 95%)` : ''
      visit({
        name: `${curve.recordId}/${p.gpuCount} GPU/${curve.scope}`,
        valueMs: p.medianMs,
        lowMs: p.ci?.low ?? null,
        highMs: p.ci?.high ?? null,
        ciLabel,
        extra: `${plural(p.runs, 'run')}, median${ciLabel ? ` with ${ciLabel}${short}` : ', no CI'}`,
      })
    }
}

function groupFigures(report: Report, visit: (figure: Figure) => void): void {
  const withCurves = new Set(report.scaling.curves.map((c) => c.recordId))
  // Under each record's own name, as when every record had its own group: a figure's history stays under its name.
  // A partial record's groups are provisional: kept out of the figures CI tracks and alerts on.
  for (const g of report.bottleneck.groups.filter((g) => !g.provisional))
    for (const recordId of g.recordIds) {
      // A scaling record's groups are already in as curve points (median with CI), which beat a bare mean.
      if (withCurves.has(recordId)) continue
      const extra = `${plural(g.runs, 'run')}, mean, no CI`
      const none = { lowMs: null, highMs: null, ciLabel: null, extra }
      visit({ name: `${recordId}/${g.group}/total`, valueMs: g.wallMs, ...none })
      for (const s of g.stages) visit({ name: `${recordId}/${g.group}/${s.stage}`, valueMs: s.durationMs, ...none })
    }
}

function benchmarkFigures(report: Report, visit: (figure: Figure) => void): void {
  for (const b of report.benchmarks) {
    // tinybench's rme is the 95% margin of error of the mean, in % of it: symmetric, and none from one sample.
    const half = (b.latencyMs.mean * b.latencyMs.rme) / 100
    const hasCi = b.samples >= 2 && Number.isFinite(half)
    visit({
      name: `bench/${b.name}`,
      valueMs: b.latencyMs.mean,
      lowMs: hasCi ? b.latencyMs.mean - half : null,
      highMs: hasCi ? b.latencyMs.mean + half : null,
      ciLabel: hasCi ? '95% CI' : null,
      extra: `${plural(b.samples, 'sample')}, ${b.project}, mean${hasCi ? ' with 95% CI' : ', no CI'}`,
    })
  }
}

/**
 * Hands every figure both formats carry to `visit`, one at a time: a large run has ~2·10^5 of them, and a writer that
 * turns each into text at once lets it die young instead of holding them all.
 */
export function eachCiFigure(report: Report, visit: (figure: Figure) => void): void {
  curveFigures(report, visit)
  groupFigures(report, visit)
  benchmarkFigures(report, visit)
}

/** Every figure, in the order the formats list them. */
export function ciFigures(report: Report): Figure[] {
  const figures: Figure[] = []
  eachCiFigure(report, (f) => figures.push(f))
  return figures
}

/** Three decimals (µs) as the values' own unit allows; four significant digits below 1 ms, where 3 decimals lose it. */
const fmt = (ms: number) => (Math.abs(ms) >= 1 ? ms.toFixed(3) : String(Number(ms.toPrecision(4))))

/** The `range` text: the interval as it is, e.g. `75% CI [4.740, 36.140]`; undefined without one. */
export function rangeText(f: Figure): string | undefined {
  if (f.lowMs === null || f.highMs === null || f.ciLabel === null) return undefined
  return `${f.ciLabel} [${fmt(f.lowMs)}, ${fmt(f.highMs)}]`
}

/**
 * github-benchmark.json's text: one `customSmallerIsBetter` entry per figure (compact, newline-terminated); null when
 * there is none, since the action refuses an empty list.
 */
export function githubBenchmarkJson(report: Report): string | null {
  const entries = jsonArrayWriter<GithubBenchmarkEntry>()
  let count = 0
  eachCiFigure(report, (f) => {
    const entry: GithubBenchmarkEntry = { name: f.name, unit: 'ms', value: f.valueMs, extra: f.extra }
    const range = rangeText(f)
    if (range !== undefined) entry.range = range
    entries.push(entry)
    count++
  })
  return count === 0 ? null : `${entries.text()}\n`
}
