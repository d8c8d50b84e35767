/**
 * index.html's capacity section: per capacity record the answer in words, the chart (capacity-chart.ts), one table per
 * size with one row per configuration, break-even and asymptotic speedup per k, and each GPU stage as fixed cost and
 * steady state. The same figures and words as capacity.md (capacity-text.ts); every string from records escaped.
 */
import type { CapacityEntry, CapacityReport, StageCell } from '../../capacity/report-analysis.ts'
import { capacitySpec } from './capacity-chart.ts'
import {
  answerLines,
  baselineOf,
  columnTitle,
  fmtBreakEven,
  fmtEfficiency,
  fmtHours,
  fmtSpeedup,
  fmtUtil,
  fmtWall,
  inputLine,
} from './capacity-text.ts'
import { renderSvg } from './charts.ts'
import { escapeHtml as h } from './escape.ts'
import { fmtMs } from './format.ts'
import { table, verdictCell } from './html-table.ts'

/** Capacity charts drawn (capacity.md holds every record's tables). */
export const MAX_CAPACITY_CHARTS = 6

const verdictOr = (v: string | null) => (v ? verdictCell(v) : 'n/a')
const stageLines = (cells: { stage: string; text: string; verdict: string | null }[]) =>
  cells.map((c) => `${h(c.stage)}: ${h(c.text)} ${verdictOr(c.verdict)}`).join('<br>') || 'n/a'
const projected = (cells: StageCell[]) =>
  stageLines(cells.map((s) => ({ stage: s.stage, text: fmtUtil(s.utilPct), verdict: s.verdict })))

function sizeTable(entry: CapacityEntry, index: number): string {
  const head = [
    'configuration',
    'wall time [95% CI]',
    `PERF-01 (<= ${fmtHours(entry.targetMs)})`,
    `speedup vs ${baselineOf(entry)} [95% CI]`,
    'efficiency',
    'PERF-02 steady state (after start-up)',
    'PERF-02 at this size',
    'PERF-03',
  ]
  const row = (i: number) => {
    const c = entry.configurations[i]!
    const cell = c.cells[index]
    const baseline = !cell?.speedup && c.gpuCount === 1
    const steady = c.stages.map((s) => ({ stage: s.stage, text: fmtUtil(s.steadyUtilPct), verdict: s.steadyVerdict }))
    return [
      h(c.label),
      h(fmtWall(cell?.wallMs ?? null)),
      verdictOr(cell?.perf01 ?? null),
      baseline
        ? '1x (baseline)'
        : `${h(fmtSpeedup(cell?.speedup ?? null))} ${cell?.speedupVerdict ? verdictCell(cell.speedupVerdict) : ''}`,
      baseline ? '100%' : h(fmtEfficiency(cell?.efficiency ?? null)),
      stageLines(steady),
      projected(cell?.perf02 ?? []),
      cell?.perf03 ? `${h(fmtSpeedup(cell.perf03.speedup))} ${verdictOr(cell.perf03.verdict)}` : 'n/a',
    ]
  }
  return `<h4>At ${h(columnTitle(entry.columns[index]!))}</h4>${table(head, entry.configurations.length, row)}`
}

function comparisonTable(entry: CapacityEntry): string {
  if (entry.comparisons.length === 0) return ''
  const row = (i: number) => {
    const c = entry.comparisons[i]!
    return [
      h(`${c.candidate} vs ${c.baseline}`),
      h(fmtBreakEven(c.breakEven)),
      verdictOr(c.breakEvenVerdict),
      h(fmtSpeedup(c.asymptoticSpeedup)),
      verdictOr(c.asymptoticVerdict),
    ]
  }
  const head = ['configurations', 'break-even [95% CI]', 'verdict', 'asymptotic speedup [95% CI]', 'verdict']
  return `<h4>Is the k-th GPU worth it</h4>${table(head, entry.comparisons.length, row)}`
}

function stagePartsTable(entry: CapacityEntry): string {
  const rows = entry.configurations.flatMap((c) => c.stages.map((s) => ({ c, s })))
  if (rows.length === 0) return ''
  const row = (i: number) => {
    const { c, s } = rows[i]!
    const startup = s.startupMs
      ? `${fmtMs(s.startupMs.value)}${s.startupMs.ci ? ` [${fmtMs(s.startupMs.ci.low)}, ${fmtMs(s.startupMs.ci.high)}]` : ''}`
      : 'n/a'
    return [
      h(c.label),
      h(s.stage),
      h(startup),
      h(fmtUtil(s.steadyUtilPct)),
      h(`${fmtMs(s.fixedMs.value)} + ${s.msPerSequence.value.toFixed(3)} ms/sequence`),
      h(fmtUtil(s.asymptoticUtilPct)),
    ]
  }
  const head = [
    'configuration',
    'GPU stage',
    "fixed: start-up before the GPU's first work",
    'steady state: utilization after it',
    'stage time: fixed + per sequence',
    'utilization as the input grows',
  ]
  return `<h4>Fixed cost and steady state per GPU stage</h4>${table(head, rows.length, row)}`
}

async function entryHtml(entry: CapacityEntry, chart: boolean): Promise<string> {
  const state = entry.state === 'completed' ? '' : ` (${entry.state}${entry.reason ? `: ${entry.reason}` : ''})`
  const covers = entry.covers ? ` The 95% CIs cover ${entry.covers}.` : ''
  const errors = entry.notFitted.map((n) => `<p class="note">${verdictCell('error')} ${h(n.label)}: ${h(n.reason)}</p>`)
  const svg = chart && entry.curves.length > 0 ? `<div class="chart">${await renderSvg(capacitySpec(entry))}</div>` : ''
  return [
    `<h3>${h(entry.name + state)}</h3>`,
    `<p>${h(inputLine(entry) + covers)}</p>`,
    ...answerLines(entry).map((l) => `<p><strong>${h(l)}</strong></p>`),
    ...errors,
    svg,
    ...entry.columns.map((_, i) => sizeTable(entry, i)),
    comparisonTable(entry),
    stagePartsTable(entry),
  ].join('\n')
}

export async function capacitySection(report: CapacityReport): Promise<string> {
  const head = '<h2>Capacity: verdicts at the size users run</h2>'
  if (report.entries.length === 0) return `${head}<p>No capacity records.</p>`
  const parts: string[] = []
  for (const [i, entry] of report.entries.entries()) parts.push(await entryHtml(entry, i < MAX_CAPACITY_CHARTS))
  if (report.entries.length > MAX_CAPACITY_CHARTS)
    parts.push(`<p>Capacity charts drawn for ${MAX_CAPACITY_CHARTS} of ${report.entries.length} records.</p>`)
  return `${head}\n${parts.join('\n')}`
}
