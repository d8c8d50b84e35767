/**
 * Capacity figures in words, shared by the markdown, HTML and terminal renderers so all three say the same: wall
 * times in the unit that reads best (s, min or h, the CI in the same unit), speedups, break-even sizes ("never" where
 * k GPUs never beat 1), and the line that answers "will my sample finish in time, and is the k-th GPU worth it".
 * Pure; raw text: callers escape.
 */
import type {
  BreakEven,
  CapacityColumn,
  CapacityComparisonRow,
  CapacityConfigRow,
  CapacityEntry,
  Figure,
} from '../../capacity/report-analysis.ts'

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

/** One configuration at one column: `2 GPUs 3.40 h [3.1, 3.7] (PERF-01 PASS)` plus, for k > 1, speedup and break-even. */
function atColumn(row: CapacityConfigRow, index: number, cmp: CapacityComparisonRow | undefined): string {
  const cell = row.cells[index]
  if (!cell) return `${row.label} n/a`
  const head = `${row.label} ${fmtWall(cell.wallMs)} (PERF-01 ${fmtVerdict(cell.perf01)})`
  if (!cmp) return head
  return `${head}: ${fmtSpeedup(cell.speedup)} over ${cmp.baseline} (efficiency ${fmtEfficiency(cell.efficiency)}), break-even ${fmtBreakEven(cmp.breakEven)}`
}

/**
 * The answer in words, one line per projected size that a user runs (their own sample, the production size):
 * `6,000,000 sequences (production, limit 10 h): 1 GPU 5.57 h [5.34, 5.83] (PERF-01 PASS); 2 GPUs ...`.
 */
export function answerLines(entry: CapacityEntry): string[] {
  if (entry.configurations.length === 0) {
    const why = entry.notFitted.map((n) => `${n.label}: ${n.reason}`).join('; ')
    return [`No size model, so no projection${why ? `: ${why}` : entry.reason ? `: ${entry.reason}` : ''}.`]
  }
  const wanted = entry.columns.flatMap((c, i) => (c.role === 'sample' || c.role === 'production' ? [i] : []))
  return wanted.map((i) => {
    const column = entry.columns[i] as CapacityColumn
    const parts = entry.configurations.map((row) =>
      atColumn(
        row,
        i,
        entry.comparisons.find((cmp) => cmp.candidate === row.label),
      ),
    )
    const title = columnTitle(column).replace(/\)$/, `, limit ${fmtHours(entry.targetMs)})`)
    return `${title}: ${parts.join('; ')}.`
  })
}

/** The projected verdicts for the terminal: per configuration one line, and for k > 1 one more against 1 GPU. */
export function capacityTerminalLines(entry: CapacityEntry): string[] {
  const projected = entry.columns.flatMap((c, i) => (c.role === 'measured' ? [] : [i]))
  const lines: string[] = []
  for (const row of entry.configurations) {
    const at = projected.map((i) => {
      const cell = row.cells[i]
      return `${fmtCount(entry.columns[i]?.sequences ?? 0)} seqs ${fmtWall(cell?.wallMs ?? null)} PERF-01 ${fmtVerdict(cell?.perf01 ?? null)}`
    })
    lines.push(`capacity ${row.label}: ${at.join(' | ')}`)
    const cmp = entry.comparisons.find((c) => c.candidate === row.label)
    const last = projected.at(-1)
    if (!cmp || last === undefined) continue
    const cell = row.cells[last]
    lines.push(
      `capacity ${row.label} vs ${cmp.baseline}: ${fmtSpeedup(cell?.speedup ?? null)} at ${fmtCount(entry.columns[last]?.sequences ?? 0)} seqs (efficiency ${fmtEfficiency(cell?.efficiency ?? null)}), break-even ${fmtBreakEven(cmp.breakEven)} ${fmtVerdict(cmp.breakEvenVerdict)}`,
    )
  }
  for (const n of entry.notFitted) lines.push(`capacity ${n.label}: ERROR no size model: ${n.reason}`)
  return lines
}
