/**
 * The compact terminal summary: one line per suite (verdict, key figure), the capacity records' projected verdicts
 * (time at the target sizes with PERF-01, speedup and break-even for k > 1), the fleet's bad nodes and sharded runs
 * (merged reports), the history's change points when a history
 * was read, then where the reports are. Pure.
 *
 * Every line holds stored fields (names, reasons, file names), so each is one line with its control characters
 * escaped: a record's name holding `\n::error ...` would otherwise print a line that GitHub Actions runs as a
 * workflow command.
 */

import { architectureLine } from '../../capacity/architecture-compare.ts'
import { escapeControls } from '../../platform/one-line.ts'
import type { Report } from '../analyses/build.ts'
import type { LeftOut } from '../left-out.ts'
import { capacityTerminalLines } from './capacity-text.ts'
import { fleetTerminalLines } from './fleet-text.ts'
import { outcomeNote } from './markdown.ts'
import { trendsTerminalLines } from './trends-text.ts'

const MAX_SUITE_LINES = 40

export function terminalSummary(
  report: Report,
  outDir: string,
  files: readonly string[],
  leftOut: readonly LeftOut[] = [],
): string[] {
  const lines: string[] = []
  const note = outcomeNote(report)
  if (note) lines.push(`gpu-report: ${note}; reports cover the records written so far`)
  const width = Math.max(4, ...report.suites.map((s) => s.verdict.length))
  for (const s of report.suites.slice(0, MAX_SUITE_LINES)) {
    const figure = s.keyFigure ?? s.reason ?? ''
    lines.push(
      `gpu-report: ${s.verdict.toUpperCase().padEnd(width)}  ${s.kind.padEnd(11)} ${s.name}${figure ? ` | ${figure}` : ''}`,
    )
  }
  if (report.suites.length > MAX_SUITE_LINES)
    lines.push(`gpu-report: ... ${report.suites.length - MAX_SUITE_LINES} more in summary.md`)
  if (report.invalid.length > 0)
    lines.push(
      `gpu-report: ${report.invalid.length} invalid record file(s), listed in summary.md: ${report.invalid.map((i) => i.file).join(', ')}`,
    )
  for (const c of report.regression?.comparisons.filter((c) => c.verdict === 'regressed') ?? [])
    lines.push(`gpu-report: REGRESSION ${c.recordId}/${c.group} ${c.metric}: ${c.reason}`)
  for (const e of report.regression?.errors ?? [])
    lines.push(`gpu-report: ERROR ${e.recordId}/${e.group}: not compared with the baseline, ${e.reason}`)
  for (const entry of report.capacity.entries)
    for (const line of capacityTerminalLines(entry)) lines.push(`gpu-report: ${line}`)
  for (const c of report.capacity.architectures) lines.push(`gpu-report: capacity ${architectureLine(c)}`)
  for (const line of fleetTerminalLines(report.fleet)) lines.push(`gpu-report: ${line}`)
  for (const line of trendsTerminalLines(report.trends)) lines.push(`gpu-report: ${line}`)
  for (const l of leftOut) lines.push(`gpu-report: ${l.file} not written: ${l.reason}`)
  lines.push(`gpu-report: ${files.length} reports in ${outDir} (open index.html; trace.json opens in ui.perfetto.dev)`)
  return lines.map(escapeControls)
}
