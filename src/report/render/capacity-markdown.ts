/**
 * Capacity in markdown: per capacity record the answer in words, one table per size (measured, the user's sample,
 * 45,000, 6,000,000: one row per configuration), break-even and asymptotic speedup per k; capacity.md adds each GPU
 * stage as fixed cost + steady state, the wall line per configuration and the notes. Pure; text from records escaped.
 */
import type { CapacityConfigRow, CapacityEntry, CapacityReport, StageCell } from '../../capacity/report-analysis.ts'
import {
  answerLines,
  baselineOf,
  columnTitle,
  fmtBreakEven,
  fmtCount,
  fmtEfficiency,
  fmtHours,
  fmtSpeedup,
  fmtUtil,
  fmtVerdict,
  fmtWall,
  inputLine,
} from './capacity-text.ts'
import { escapeMarkdown as esc } from './escape.ts'
import { fmtMs } from './format.ts'
import { mdTable } from './markdown-table.ts'

const stageList = (cells: StageCell[]) =>
  cells.map((s) => `${s.stage} ${fmtUtil(s.utilPct)} ${fmtVerdict(s.verdict)}`).join('; ') || 'n/a'

function steadyList(row: CapacityConfigRow): string {
  return (
    row.stages.map((s) => `${s.stage} ${fmtUtil(s.steadyUtilPct)} ${fmtVerdict(s.steadyVerdict)}`).join('; ') || 'n/a'
  )
}

/** One size's table: one row per configuration. */
function sizeTable(entry: CapacityEntry, index: number): string {
  const rows = entry.configurations.map((row) => {
    const cell = row.cells[index]
    const baseline = row.gpuCount === 1 && !cell?.speedup
    return [
      row.label,
      fmtWall(cell?.wallMs ?? null),
      fmtVerdict(cell?.perf01 ?? null),
      baseline
        ? '1x (baseline)'
        : `${fmtSpeedup(cell?.speedup ?? null)} ${cell?.speedupVerdict ? fmtVerdict(cell.speedupVerdict) : ''}`.trim(),
      baseline ? '100%' : fmtEfficiency(cell?.efficiency ?? null),
      steadyList(row),
      stageList(cell?.perf02 ?? []),
      cell?.perf03 ? `${fmtSpeedup(cell.perf03.speedup)} ${fmtVerdict(cell.perf03.verdict)}` : 'n/a',
    ]
  })
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
  return `#### At ${esc(columnTitle(entry.columns[index]!))}\n\n${mdTable(head, rows)}\n`
}

function comparisonTable(entry: CapacityEntry): string {
  if (entry.comparisons.length === 0) return ''
  const rows = entry.comparisons.map((c) => [
    `${c.candidate} vs ${c.baseline}`,
    fmtBreakEven(c.breakEven),
    fmtVerdict(c.breakEvenVerdict),
    fmtSpeedup(c.asymptoticSpeedup),
    fmtVerdict(c.asymptoticVerdict),
  ])
  const head = ['configurations', 'break-even [95% CI]', 'verdict', 'asymptotic speedup [95% CI]', 'verdict']
  return `#### Is the k-th GPU worth it\n\n${mdTable(head, rows)}\n`
}

function stagePartsTable(entry: CapacityEntry): string {
  const rows = entry.configurations.flatMap((row) =>
    row.stages.map((s) => [
      row.label,
      s.stage,
      s.startupMs
        ? `${fmtMs(s.startupMs.value)}${s.startupMs.ci ? ` [${fmtMs(s.startupMs.ci.low)}, ${fmtMs(s.startupMs.ci.high)}]` : ''}`
        : 'n/a',
      fmtUtil(s.steadyUtilPct),
      fmtMs(s.fixedMs.value),
      `${s.msPerSequence.value.toFixed(3)} ms`,
      fmtUtil(s.asymptoticUtilPct),
    ]),
  )
  if (rows.length === 0) return ''
  const head = [
    'configuration',
    'GPU stage',
    "fixed: start-up before the GPU's first work",
    'steady state: utilization after it',
    'size model: fixed part',
    'per sequence',
    'utilization as the input grows',
  ]
  return `#### Fixed cost and steady state per GPU stage\n\n${mdTable(head, rows)}\n`
}

function wallTable(entry: CapacityEntry): string {
  const rows = entry.configurations.map((row) => [
    row.label,
    row.measured.map((m) => `${fmtCount(m.records)}: ${fmtMs(m.medianWallMs)} (${m.runs} runs)`).join('; '),
    fmtWall(row.wallFixedMs),
    `${row.wallMsPerSequence.value.toFixed(3)} ms`,
  ])
  return `#### Wall time as fixed + per sequence\n\n${mdTable(['configuration', 'measured: records: median wall', 'fixed', 'per sequence'], rows)}\n`
}

function notesOf(entry: CapacityEntry): string {
  const notes = [...entry.notFitted.map((n) => `ERROR: ${n.label} has no size model: ${n.reason}`), ...entry.notes]
  return notes.length ? `${notes.map((n) => `- ${esc(n)}`).join('\n')}\n` : ''
}

function entryMarkdown(entry: CapacityEntry, full: boolean): string {
  const state = entry.state === 'completed' ? '' : ` (${entry.state}${entry.reason ? `: ${esc(entry.reason)}` : ''})`
  const parts = [
    `### ${esc(entry.name)}${state}\n`,
    `${esc(inputLine(entry))}${entry.covers ? ` The 95% CIs cover ${esc(entry.covers)}.` : ''}\n`,
    `${answerLines(entry)
      .map((l) => `**${esc(l)}**`)
      .join('\n\n')}\n`,
    ...entry.columns.map((_, i) => sizeTable(entry, i)),
    comparisonTable(entry),
  ]
  if (full) parts.push(stagePartsTable(entry), wallTable(entry), notesOf(entry))
  else if (entry.notFitted.length) parts.push(notesOf({ ...entry, notes: [] }))
  return parts.filter((p) => p !== '').join('\n')
}

/** summary.md's capacity section (`full`: capacity.md's, with the parts and notes). */
export function capacityMarkdown(report: CapacityReport, full = false): string {
  if (report.entries.length === 0) return '_No capacity records._\n'
  const more = full ? '' : '\nFixed cost and steady state per stage, and the notes: capacity.md.\n'
  return `${report.entries.map((e) => entryMarkdown(e, full)).join('\n')}${more}`
}
