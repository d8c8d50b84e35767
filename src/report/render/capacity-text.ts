/**
 * Capacity figures in words, shared by the markdown, HTML and terminal renderers so all three say the same: one time
 * unit per column (seconds at a measured size, hours at a projected one: capacity/figure-columns.ts), speedups,
 * break-even sizes ("never" where k GPUs never beat 1), verdicts marked PROVISIONAL on a partial record, and what a
 * record without an answer has instead. The answer itself is capacity/answer-table.ts's, laid out by answer-*.ts.
 * Pure; raw text: callers escape.
 */
import { ciText } from '../../capacity/answer-level.ts'
import { answerView, verdictCell } from '../../capacity/answer-table.ts'
import { type TimeUnit, timeColumn, timeUnitAt } from '../../capacity/figure-columns.ts'
import type { BreakEven, CapacityColumn, CapacityEntry, Figure } from '../../capacity/report-analysis.ts'
import type { VerdictValue } from '../../results/schema/index.ts'
import { answerTextLines } from './answer-text.ts'

const MINUTE_MS = 60_000
const HOUR_MS = 3_600_000

export const fmtCount = (n: number) => Math.round(n).toLocaleString('en-US')

const digitsFor = (value: number) => (Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2)

/** `value unit [low, high]` with the CI in the value's unit and digits. */
function withCi(f: Figure, by: number, unit: string): string {
  const d = digitsFor(f.value / by)
  const ci = f.ci ? ` [${(f.ci.low / by).toFixed(d)}, ${(f.ci.high / by).toFixed(d)}]` : ''
  return `${(f.value / by).toFixed(d)}${unit}${ci}`
}

/** A wall time (ms) with its CI: ms below 1 s, seconds below 2 min, minutes below 2 h, else hours. */
export function fmtWall(f: Figure | null): string {
  if (!f) return 'n/a'
  const abs = Math.abs(f.value)
  if (abs < 1000) return withCi(f, 1, ' ms')
  if (abs < 2 * MINUTE_MS) return withCi(f, 1000, ' s')
  if (abs < 2 * HOUR_MS) return withCi(f, MINUTE_MS, ' min')
  return withCi(f, HOUR_MS, ' h')
}

export const fmtHours = (ms: number) => `${Number((ms / HOUR_MS).toPrecision(3))} h`
export const fmtSpeedup = (f: Figure | null) => (f ? withCi(f, 1, 'x') : 'n/a')
export const fmtEfficiency = (f: Figure | null) => (f ? `${(f.value * 100).toFixed(0)}%` : 'n/a')
export const fmtUtil = (f: Figure | null) => (f ? withCi(f, 1, '%') : 'n/a')
export const fmtVerdict = (v: string | null) => (v ? v.toUpperCase() : 'n/a')

const sequencesOrNever = (n: number | null) => (n === null ? 'never' : fmtCount(n))

/** `3,200 sequences [1,900, 5,100]`, `never`, or with an open end: `[91, never]` (0: faster from the start). */
export function fmtBreakEven(b: BreakEven): string {
  if (b.sequences === null && (b.ci === null || b.ci.low === null)) return 'never'
  const ci = b.ci ? ` [${sequencesOrNever(b.ci.low)}, ${sequencesOrNever(b.ci.high)}]` : ''
  return `${b.sequences === null ? 'never' : `${fmtCount(b.sequences)} sequences`}${ci}`
}

/** What was measured: the input's identity and the nested sizes. */
export function inputLine(entry: CapacityEntry): string {
  const i = entry.input
  const what = i
    ? `${i.source}${i.preset ? ` (${i.preset})` : ''}, sha256 ${i.sha256Prefix}…, ${fmtCount(i.records)} records, ${i.workPerRecord.toFixed(0)} bases of GPU work per record (stop-free frames)`
    : 'not recorded'
  const counts = entry.sizes.map(fmtCount)
  const sizes = counts.length > 1 ? `${counts.slice(0, -1).join(', ')} and ${counts.at(-1)}` : counts[0]
  return `Input: ${what}; measured at ${sizes || 'no'} records (nested subsets).`
}

/** The configuration speedups are against (1 GPU, or its stand-in). */
export const baselineOf = (entry: CapacityEntry) => entry.comparisons[0]?.baseline ?? '1 GPU'

/** The column's heading: `45,000 sequences (typical)`. */
export function columnTitle(c: CapacityColumn): string {
  const role = { measured: 'measured size', sample: 'your whole sample', typical: 'typical', production: 'production' }
  return `${fmtCount(c.sequences)} sequences (${role[c.role]})`
}

/**
 * The level every interval of the entry is at, with why (capacity/answer-level.ts): `99.17% CI, Bonferroni over 6
 * looks` under the decided design, `95% CI, judged once` without one.
 */
export const ciLabel = (entry: CapacityEntry) => entry.answer?.ciText ?? ciText(0.95, 1)

/**
 * A time column of the entry's size tables: seconds at a measured size, hours at a projected one (one unit per column,
 * named in the heading; capacity/figure-columns.ts), its digits read from every row's figure.
 */
export function wallColumn(
  entry: CapacityEntry,
  index: number,
): { unit: TimeUnit; cell: (f: Figure | null) => string } {
  const column = entry.columns[index]
  const unit = timeUnitAt(column?.sequences ?? 0, entry.measuredSequences)
  const format = timeColumn(
    unit,
    entry.configurations.map((row) => row.cells[index]?.wallMs?.value),
  )
  return { unit, cell: (f) => (f ? format(f.value, f.ci) : 'n/a') }
}

/** A verdict of the record: marked PROVISIONAL where the record is partial (capacity/answer-table.ts). */
export const fmtEntryVerdict = (entry: CapacityEntry, v: VerdictValue | null) =>
  v === null ? 'n/a' : verdictCell(v, entry.status.final)

/**
 * Where there is no answer: what the record has instead. A partial record whose kept runs fit no size model yet says
 * so with its count of runs (never "no model" where the runs could support one: those have an answer).
 */
export function noAnswerLine(entry: CapacityEntry): string {
  const why = entry.notFitted.map((n) => `${n.label}: ${n.reason}`).join('; ')
  if (!entry.status.final) {
    const sizes = entry.sizes.map(fmtCount).join(' and ')
    return `${entry.statusText}: no projection yet: the runs kept so far fit no size model${why ? ` (${why})` : ''}; a size model needs completed runs at two sizes of each configuration${sizes ? ` (the measurement plans ${sizes} records)` : ''}; the same command run again continues it.`
  }
  return `No size model, so no projection${why ? `: ${why}` : entry.reason ? `: ${entry.reason}` : ''}.`
}

/**
 * What a known answer's record shows instead of an answer (capacity/known-answer.ts): it is a check's evidence, and a
 * reader who met its sentence among the answers took it for a configuration's (issue 44).
 */
export const KNOWN_ANSWER_NOTE =
  "A known answer, not a capacity answer: this record's fit is the evidence of a check of the size model against a truth it was given (docs/VALIDATION.md); the check's result is its test's annotation."

/**
 * The terminal's capacity lines: the answer's sentence, each undecided verdict's reason, and its time and k-vs-1
 * tables, or what there is instead; none for a known answer (its suite line names it; its check's result is its
 * test's annotation).
 */
export function capacityTerminalLines(entry: CapacityEntry): string[] {
  if (entry.knownAnswer) return []
  const errors = entry.notFitted.map((n) => `capacity ${n.label}: ERROR no size model: ${n.reason}`)
  if (!entry.answer) return [`capacity ${entry.name}: ${noAnswerLine(entry)}`, ...errors]
  const lines = answerTextLines(answerView(entry.answer), {
    tables: ['time', 'speedup'],
    decisions: false,
    definitions: false,
  })
  return [`capacity ${entry.name}: ${lines[0]}`, ...lines.slice(1).map((l) => `capacity   ${l}`), ...errors]
}
