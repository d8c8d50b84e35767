/**
 * Capacity in markdown: per capacity record its answer first (status, sentence, the answer's tables: answer-markdown.ts),
 * then the evidence: one table per size (measured, the user's sample, 45,000, 6,000,000: one row per configuration,
 * seconds at a measured size and hours at a projected one), break-even and asymptotic speedup per k; capacity.md adds
 * each GPU stage as fixed cost + steady state, the wall line per configuration and the notes. A partial record's
 * verdicts read PROVISIONAL. Pure; text from records escaped.
 */
import { answerView } from '../../capacity/answer-table.ts'
import { architectureLine } from '../../capacity/architecture-compare.ts'
import { timeColumn } from '../../capacity/figure-columns.ts'
import type { CapacityEntry, CapacityReport, StageCell } from '../../capacity/report-analysis.ts'
import { answerMarkdown } from './answer-markdown.ts'
import {
  baselineOf,
  ciLabel,
  columnTitle,
  fmtBreakEven,
  fmtCount,
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
import { escapeMarkdown as esc } from './escape.ts'
import { mdTable } from './markdown-table.ts'

const stageList = (entry: CapacityEntry, cells: StageCell[]) =>
  cells.map((s) => `${s.stage} ${fmtUtil(s.utilPct)} ${fmtEntryVerdict(entry, s.verdict)}`).join('; ') || 'n/a'

/** One size's table: one row per configuration. */
function sizeTable(entry: CapacityEntry, index: number): string {
  const wall = wallColumn(entry, index)
  const verdict = (v: Parameters<typeof fmtEntryVerdict>[1]) => fmtEntryVerdict(entry, v)
  const rows = entry.configurations.map((row) => {
    const cell = row.cells[index]
    const baseline = row.gpuCount === 1 && !cell?.speedup
    return [
      row.label,
      wall.cell(cell?.wallMs ?? null),
      verdict(cell?.perf01 ?? null),
      baseline
        ? '1x (baseline)'
        : `${fmtSpeedup(cell?.speedup ?? null)} ${cell?.speedupVerdict ? verdict(cell.speedupVerdict) : ''}`.trim(),
      baseline ? '100%' : fmtEfficiency(cell?.efficiency ?? null),
      stageList(entry, cell?.perf02 ?? []),
      cell?.perf03 ? `${fmtSpeedup(cell.perf03.speedup)} ${verdict(cell.perf03.verdict)}` : 'n/a',
    ]
  })
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
  return `#### At ${esc(columnTitle(entry.columns[index]!))}\n\n${mdTable(head, rows)}\n`
}

function comparisonTable(entry: CapacityEntry): string {
  if (entry.comparisons.length === 0) return ''
  const rows = entry.comparisons.map((c) => [
    `${c.candidate} vs ${c.baseline}`,
    fmtBreakEven(c.breakEven),
    fmtEntryVerdict(entry, c.breakEvenVerdict),
    fmtSpeedup(c.asymptoticSpeedup),
    fmtEntryVerdict(entry, c.asymptoticVerdict),
  ])
  const level = ciLabel(entry)
  const head = ['configurations', `break-even [${level}]`, 'verdict', `asymptotic speedup [${level}]`, 'verdict']
  return `#### Is the k-th GPU worth it\n\n${mdTable(head, rows)}\n`
}

function stagePartsTable(entry: CapacityEntry): string {
  const all = entry.configurations.flatMap((row) => row.stages)
  // Seconds in both time columns: one unit per column.
  const startup = timeColumn(
    's',
    all.map((s) => s.startupMs?.value),
  )
  const fixed = timeColumn(
    's',
    all.map((s) => s.fixedMs.value),
  )
  const rows = entry.configurations.flatMap((row) =>
    row.stages.map((s) => [
      row.label,
      s.stage,
      s.startupMs ? startup(s.startupMs.value, s.startupMs.ci) : 'n/a',
      fmtUtil(s.steadyUtilPct),
      fixed(s.fixedMs.value),
      `${s.msPerSequence.value.toFixed(3)} ms`,
      fmtUtil(s.asymptoticUtilPct),
    ]),
  )
  if (rows.length === 0) return ''
  const head = [
    'configuration',
    'GPU stage',
    "fixed: start-up before the GPU's first work (s)",
    'steady state: utilization after it',
    'size model: fixed part (s)',
    'per sequence',
    'utilization as the input grows',
  ]
  return `#### Fixed cost and steady state per GPU stage\n\n${mdTable(head, rows)}\n`
}

function wallTable(entry: CapacityEntry): string {
  // Seconds: measured runs and the fixed part alike.
  const fixed = timeColumn(
    's',
    entry.configurations.map((row) => row.wallFixedMs.value),
  )
  const rows = entry.configurations.map((row) => [
    row.label,
    row.measured
      .map((m) => `${fmtCount(m.records)}: ${(m.medianWallMs / 1000).toFixed(2)} (${m.runs} runs)`)
      .join('; '),
    fixed(row.wallFixedMs.value, row.wallFixedMs.ci),
    `${row.wallMsPerSequence.value.toFixed(3)} ms`,
  ])
  const head = ['configuration', 'measured: records: median wall (s)', `fixed (s) [${ciLabel(entry)}]`, 'per sequence']
  return `#### Wall time as fixed + per sequence\n\n${mdTable(head, rows)}\n`
}

function notesOf(entry: CapacityEntry): string {
  const notes = [...entry.notFitted.map((n) => `ERROR: ${n.label} has no size model: ${n.reason}`), ...entry.notes]
  return notes.length ? `${notes.map((n) => `- ${esc(n)}`).join('\n')}\n` : ''
}

/**
 * The entry's answer (status, sentence, reasons, its tables, design, decisions, definitions), or what it has instead;
 * a known answer's record says what it is instead of an answer.
 */
export function entryAnswerMarkdown(entry: CapacityEntry): string {
  if (entry.knownAnswer) return `_${esc(KNOWN_ANSWER_NOTE)}_\n`
  return entry.answer ? answerMarkdown(answerView(entry.answer)) : `**${esc(noAnswerLine(entry))}**\n`
}

/** `answer`: the entry's answer first (capacity.md; summary.md shows it at its top instead). */
function entryMarkdown(entry: CapacityEntry, full: boolean, answer: boolean): string {
  const state = entry.state === 'completed' ? '' : ` (${entry.state}${entry.reason ? `: ${esc(entry.reason)}` : ''})`
  const parts = [
    `### ${esc(entry.name)}${state}\n`,
    ...(answer ? [entryAnswerMarkdown(entry)] : []),
    `#### Evidence\n\n${esc(inputLine(entry))}${entry.covers ? esc(` The intervals (${ciLabel(entry)}) cover ${entry.covers}.`) : ''}\n`,
    ...entry.columns.map((_, i) => sizeTable(entry, i)),
    comparisonTable(entry),
  ]
  if (full) parts.push(stagePartsTable(entry), wallTable(entry), notesOf(entry))
  else if (entry.notFitted.length) parts.push(notesOf({ ...entry, notes: [] }))
  return parts.filter((p) => p !== '').join('\n')
}

/**
 * summary.md's capacity section, the evidence only (its answers are at the summary's top: answerTop); `full`:
 * capacity.md's, each record's answer first, then the evidence with the parts and notes.
 */
export function capacityMarkdown(report: CapacityReport, full = false): string {
  if (report.entries.length === 0) return '_No capacity records._\n'
  const more = full
    ? ''
    : '\nThe answer: at the top of this summary. Fixed cost and steady state per stage, and the notes: capacity.md.\n'
  // capacity.md holds the answers, so v2.0 against v1.0 too (summary.md has it at the top, after the answers).
  const architectures =
    full && report.architectures.length > 0
      ? `\n#### v2.0 against v1.0 (each a capacity answer of its own)\n\n${report.architectures.map((c) => `- ${esc(architectureLine(c))}`).join('\n')}\n`
      : ''
  return `${report.entries.map((e) => entryMarkdown(e, full, full)).join('\n')}${architectures}${more}`
}
