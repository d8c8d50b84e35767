/**
 * index.html's capacity section: per capacity record its answer first (answer-html.ts: status, sentence, the answer's
 * tables), then the chart (capacity-chart.ts), one table per size with one row per configuration (seconds at a
 * measured size, hours at a projected one), break-even and asymptotic speedup per k, and each GPU stage as fixed
 * cost and steady state. The same figures and words as capacity.md (capacity-text.ts); a partial record's verdicts
 * read PROVISIONAL; every string from records escaped.
 */
import { answerView } from '../../capacity/answer-table.ts'
import { architectureLine } from '../../capacity/architecture-compare.ts'
import { timeColumn } from '../../capacity/figure-columns.ts'
import type { CapacityEntry, CapacityReport, StageCell } from '../../capacity/report-analysis.ts'
import type { VerdictValue } from '../../results/schema/index.ts'
import { answerHtml } from './answer-html.ts'
import { capacitySpec } from './capacity-chart.ts'
import {
  baselineOf,
  ciLabel,
  columnTitle,
  fmtBreakEven,
  fmtEfficiency,
  fmtEntryVerdict,
  fmtHours,
  fmtSpeedup,
  fmtUtil,
  inputLine,
  KNOWN_ANSWER_NOTE,
  noAnswerLine,
  wallColumn,
} from './capacity-text.ts'
import { renderSvg } from './charts.ts'
import { escapeHtml as h } from './escape.ts'
import { table, verdictCell } from './html-table.ts'

/** Capacity charts drawn (capacity.md holds every record's tables). */
export const MAX_CAPACITY_CHARTS = 6

/** A verdict's cell, its class the verdict's; its text PROVISIONAL-marked on a partial record. */
function verdictOf(entry: CapacityEntry) {
  return (v: VerdictValue | null) => (v ? `<span class="${h(v)}">${h(fmtEntryVerdict(entry, v))}</span>` : 'n/a')
}
const stageLines = (
  cells: { stage: string; text: string; verdict: VerdictValue | null }[],
  verdictOr: (v: VerdictValue | null) => string,
) => cells.map((c) => `${h(c.stage)}: ${h(c.text)} ${verdictOr(c.verdict)}`).join('<br>') || 'n/a'
const projected = (cells: StageCell[], verdictOr: (v: VerdictValue | null) => string) =>
  stageLines(
    cells.map((s) => ({ stage: s.stage, text: fmtUtil(s.utilPct), verdict: s.verdict })),
    verdictOr,
  )

function sizeTable(entry: CapacityEntry, index: number): string {
  const wall = wallColumn(entry, index)
  const verdictOr = verdictOf(entry)
  const head = [
    'configuration',
    `wall time (${wall.unit}) [${ciLabel(entry)}]`,
    `PERF-01 (<= ${fmtHours(entry.targetMs)})`,
    `speedup vs ${baselineOf(entry)} [${ciLabel(entry)}]`,
    'efficiency',
    // One utilization figure a stage here; the steady state after start-up is the per-stage table's detail.
    'PERF-02 at this size',
    'PERF-03',
  ]
  const row = (i: number) => {
    const c = entry.configurations[i]!
    const cell = c.cells[index]
    const baseline = !cell?.speedup && c.gpuCount === 1
    return [
      h(c.label),
      h(wall.cell(cell?.wallMs ?? null)),
      verdictOr(cell?.perf01 ?? null),
      baseline
        ? '1x (baseline)'
        : `${h(fmtSpeedup(cell?.speedup ?? null))} ${cell?.speedupVerdict ? verdictOr(cell.speedupVerdict) : ''}`,
      baseline ? '100%' : h(fmtEfficiency(cell?.efficiency ?? null)),
      projected(cell?.perf02 ?? [], verdictOr),
      cell?.perf03 ? `${h(fmtSpeedup(cell.perf03.speedup))} ${verdictOr(cell.perf03.verdict)}` : 'n/a',
    ]
  }
  return `<h4>At ${h(columnTitle(entry.columns[index]!))}</h4>${table(head, entry.configurations.length, row)}`
}

function comparisonTable(entry: CapacityEntry): string {
  if (entry.comparisons.length === 0) return ''
  const verdictOr = verdictOf(entry)
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
  const level = ciLabel(entry)
  const head = ['configurations', `break-even [${level}]`, 'verdict', `asymptotic speedup [${level}]`, 'verdict']
  return `<h4>Is the k-th GPU worth it</h4>${table(head, entry.comparisons.length, row)}`
}

function stagePartsTable(entry: CapacityEntry): string {
  const rows = entry.configurations.flatMap((c) => c.stages.map((s) => ({ c, s })))
  if (rows.length === 0) return ''
  // Seconds for both fixed parts: one unit per column.
  const startupS = timeColumn(
    's',
    rows.map(({ s }) => s.startupMs?.value),
  )
  const fixedS = timeColumn(
    's',
    rows.map(({ s }) => s.fixedMs.value),
  )
  const row = (i: number) => {
    const { c, s } = rows[i]!
    return [
      h(c.label),
      h(s.stage),
      h(s.startupMs ? startupS(s.startupMs.value, s.startupMs.ci) : 'n/a'),
      h(fmtUtil(s.steadyUtilPct)),
      h(`${fixedS(s.fixedMs.value)} s + ${s.msPerSequence.value.toFixed(3)} ms/sequence`),
      h(fmtUtil(s.asymptoticUtilPct)),
    ]
  }
  const head = [
    'configuration',
    'GPU stage',
    "fixed: start-up before the GPU's first work (s)",
    'steady state: utilization after it',
    'stage time: fixed + per sequence',
    'utilization as the input grows',
  ]
  return `<h4>Fixed cost and steady state per GPU stage</h4>${table(head, rows.length, row)}`
}

async function entryHtml(entry: CapacityEntry, chart: boolean): Promise<string> {
  const state = entry.state === 'completed' ? '' : ` (${entry.state}${entry.reason ? `: ${entry.reason}` : ''})`
  const covers = entry.covers ? ` The intervals (${ciLabel(entry)}) cover ${entry.covers}.` : ''
  const errors = entry.notFitted.map((n) => `<p class="note">${verdictCell('error')} ${h(n.label)}: ${h(n.reason)}</p>`)
  const svg = chart && entry.curves.length > 0 ? `<div class="chart">${await renderSvg(capacitySpec(entry))}</div>` : ''
  const answer = entry.knownAnswer
    ? `<p><em>${h(KNOWN_ANSWER_NOTE)}</em></p>`
    : entry.answer
      ? answerHtml(answerView(entry.answer))
      : `<p><strong>${h(noAnswerLine(entry))}</strong></p>`
  return [
    `<h3>${h(entry.name + state)}</h3>`,
    answer,
    '<h4>Evidence</h4>',
    `<p>${h(inputLine(entry) + covers)}</p>`,
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
  if (report.architectures.length > 0)
    parts.push(
      `<h3>v2.0 against v1.0 (each a capacity answer of its own)</h3><ul>${report.architectures.map((c) => `<li>${h(architectureLine(c))}</li>`).join('')}</ul>`,
    )
  return `${head}\n${parts.join('\n')}`
}
