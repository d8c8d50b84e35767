/** Text for `history list`, `history show` and `history changes`: data in, lines out. Pure. */

import type { ChangesReport, SeriesChange } from '../history/changes.ts'
import type { RunSummary, Series } from '../history/read.ts'
import { fmtRange, fmtValue } from '../report/render/format.ts'
import {
  commitRange,
  fmtChange,
  fmtLevel,
  machineOf,
  regressionText,
  shortCommit,
} from '../report/render/trends-text.ts'

function table(header: string[], rows: string[][]): string[] {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)))
  const line = (cells: string[]) =>
    cells
      .map((c, i) => c.padEnd(widths[i]!))
      .join('  ')
      .trimEnd()
  return [line(header), ...rows.map(line)]
}

export function renderRuns(runs: readonly RunSummary[], file: string): string[] {
  if (runs.length === 0) return [`no runs in ${file}`]
  const rows = runs.map((r) => [
    r.runId,
    r.createdAt,
    r.hosts.join(', '),
    r.gpuModels.join(', '),
    `${r.commits.map(shortCommit).join(', ')} (${r.commitOf.join(', ')})`,
    String(r.records),
    String(r.metrics),
  ])
  return [
    ...table(['run', 'created', 'host', 'GPU', 'commit', 'records', 'metrics'], rows),
    '',
    `${runs.length} run(s) in ${file}`,
  ]
}

/** One block per machine: each point with its run, commit, value, CI and verdict state. */
export function renderSeries(series: readonly Series[]): string[] {
  const out: string[] = []
  for (const s of series) {
    const better = s.metric.better ? `${s.metric.better} is better` : 'no direction'
    out.push(`${s.metric.name} (${s.metric.unit ?? 'no unit'}, ${better}) of ${s.recordId} on ${machineOf(s)}`)
    const rows = s.records.map((r, i) => {
      const d = s.detail
      const low = d?.ciLow[i] ?? null
      const high = d?.ciHigh[i] ?? null
      const ci = low === null || high === null ? '' : fmtRange({ low, high }, fmtValue).trim()
      return [
        r.createdAt,
        r.runId,
        shortCommit(r.commit),
        fmtValue(s.values[i]!),
        ci,
        d?.n[i]?.toString() ?? '',
        d?.verdicts[i] ?? '',
      ]
    })
    out.push(
      ...table(['created', 'run', 'commit', 'value', '95% CI', 'runs', 'verdict'], rows).map((l) => `  ${l}`),
      '',
    )
  }
  return out
}

function renderChange(c: SeriesChange): string[] {
  const moved = c.movedWith.map((m) => `${m.metric} ${fmtChange(m.relativeChange)}`)
  const confirmed = c.confirmedByNewest ? ' [confirmed by the newest run]' : ''
  return [
    `${c.regression ? 'REGRESSION' : 'improvement'} ${c.metric} of ${c.recordId} on ${machineOf(c)}: ${commitRange(c)} (runs ${c.fromRun}..${c.toRun})${confirmed}`,
    `  before ${fmtLevel(c.before, c.unit)}, after ${fmtLevel(c.after, c.unit)}: ${fmtChange(c.relativeChange)}, p ${c.pValue.toPrecision(3)}`,
    ...(moved.length ? [`  moved with it: ${moved.join('; ')}`] : []),
  ]
}

function renderNewest(report: ChangesReport): string[] {
  if (!report.newestCommit) return []
  const out = [
    '',
    `newest run ${report.newestRun} (commit ${shortCommit(report.newestCommit)}) against the last stable window:`,
  ]
  const counts = new Map<string, number>()
  for (const j of report.newest) {
    const v = j.comparison.verdict
    counts.set(v, (counts.get(v) ?? 0) + 1)
    if (v === 'regressed' || v === 'improved')
      out.push(`  ${v} ${j.metric} of ${j.recordId} on ${machineOf(j)} (${j.basis}): ${j.comparison.reason}`)
  }
  const tooFew = report.newest.find((j) => j.comparison.verdict === 'inconclusive' && j.comparison.ratio === null)
  out.push(`  ${[...counts].map(([v, n]) => `${n} ${v}`).join(', ') || 'no series with earlier points'}`)
  if (tooFew) out.push(`  (inconclusive for too few runs, e.g. ${tooFew.comparison.reason})`)
  return out
}

export function renderChanges(report: ChangesReport): string[] {
  const out: string[] = []
  out.push(
    report.changes.length === 0
      ? `no change points in ${report.seriesJudged} series`
      : `${report.changes.length} change point(s) in ${report.seriesJudged} series:`,
  )
  for (const c of report.changes) out.push(...renderChange(c))
  out.push(...renderNewest(report))
  for (const n of report.notJudged) out.push(`not judged: ${n.metric} of ${n.recordId} on ${machineOf(n)}: ${n.reason}`)
  // Before the gate's heading: the nightly job reads the indented lines after that heading as its errors.
  if (report.suspects.length > 0) {
    out.push(
      `SUSPECTED: the newest run alone regressed in ${report.suspects.length} series (not failed on until a second run regresses against the same window):`,
    )
    for (const r of report.suspects) out.push(`  ${regressionText(r)}`)
  }
  if (report.regressions.length === 0) out.push('no regression brought to light by the newest run')
  else {
    out.push(`REGRESSION: the newest run brings ${report.regressions.length} regression(s) to light:`)
    for (const r of report.regressions) out.push(`  ${regressionText(r)}`)
  }
  return out
}
