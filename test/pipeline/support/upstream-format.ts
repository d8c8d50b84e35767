/**
 * Test helper: writes log lines the way VirNucPro's Python code formats them (docs/UPSTREAM.md "Log lines", and
 * upstream's pipeline_telemetry.py), so parser tests and fake targets share one source of the format.
 */
import { PIPELINE_STAGES } from '../../../src/pipeline/stages.ts'

/** Python `{n:,}` for an integer. */
export function pyGrouped(n: number): string {
  return Math.trunc(n).toLocaleString('en-US')
}

/** Python `{x:W.Pf}`; callers pass values whose rounding cannot tie. */
export function pyFixed(x: number, precision: number, width = 0): string {
  return x.toFixed(precision).padStart(width)
}

/** `YYYY-mm-dd HH:MM:SS - <logger> - LEVEL - msg`. */
export function prefixed(message: string, logger = 'virnucpro.pipeline.prediction', level = 'INFO'): string {
  return `2026-11-22 00:00:00 - ${logger} - ${level} - ${message}`
}

/** A v2 worker's line: `asctime - Worker {r} - name - LEVEL - msg`. */
export function workerLine(rank: number, message: string, level = 'INFO'): string {
  return `2026-11-22 00:00:00,123 - Worker ${rank} - virnucpro.pipeline.gpu_worker - ${level} - ${message}`
}

export function stageStart(index: number, name: string): string {
  return `=== Stage ${index}: ${name} ===`
}

export type Extra = [key: string, value: number | string] | ['skipped', { reason: string }]

/** `  {name} completed in {s:.1f}s [key: value, ...]`, ints with thousands separators. */
export function stageEnd(name: string, durationS: number, extras: Extra[] = []): string {
  const parts = extras.map(([key, value]) => {
    if (typeof value === 'object') return `skipped (${value.reason})`
    if (typeof value === 'number') return `${key}: ${Number.isInteger(value) ? pyGrouped(value) : pyFixed(value, 1)}`
    return `${key}: ${value}`
  })
  const tail = parts.length > 0 ? ` [${parts.join(', ')}]` : ''
  return `  ${name} completed in ${pyFixed(durationS, 1)}s${tail}`
}

export interface SummaryInput {
  totalS: number
  stages: { name: string; durationS: number | null }[]
  sequences?: number
}

function hms(seconds: number): string {
  const h = Math.floor(seconds / 3600)
  const m = Math.floor((seconds % 3600) / 60)
  const s = Math.floor(seconds % 60)
  return [h, m, s].map((v) => String(v).padStart(2, '0')).join(':')
}

/** The closing block, line by line (messages, without the logging prefix). */
export function summaryBlock(input: SummaryInput): string[] {
  const width = Math.max(...input.stages.map((s) => s.name.length), 20)
  const pct = (d: number) => (input.totalS > 0 ? (d / input.totalS) * 100 : 0)
  const lines = ['', '='.repeat(80), 'PIPELINE SUMMARY', '='.repeat(80)]
  lines.push(`Total wall time: ${hms(input.totalS)} (${pyFixed(input.totalS, 1)}s)`, '', 'Stages:')
  input.stages.forEach((s, i) => {
    const dots = '.'.repeat(width - s.name.length + 4)
    const tail =
      s.durationS === null ? 'skipped' : `${pyFixed(s.durationS, 1, 6)}s (${pyFixed(pct(s.durationS), 1, 5)}%)`
    lines.push(`  ${i + 1}. ${s.name} ${dots}  ${tail}`)
  })
  const active = input.stages.filter((s) => s.durationS !== null) as { name: string; durationS: number }[]
  const top = [...active].sort((a, b) => b.durationS - a.durationS).slice(0, 3)
  const parts = top.filter((s) => pct(s.durationS) > 0).map((s) => `${s.name} (${pct(s.durationS).toFixed(0)}%)`)
  lines.push('')
  if (parts.length > 0) lines.push(`Bottlenecks: ${parts.join(', ')}`)
  lines.push('', 'Key metrics:')
  if (input.sequences !== undefined && input.sequences > 0)
    lines.push(`  Sequences processed: ${pyGrouped(input.sequences)}`)
  lines.push('='.repeat(80))
  return lines
}

/** `Batch {i}: {done}/{total} ({p:.1f}%) | {eff:.1%} pack eff, {tok:,.0f} tok/s, {seq:.1f} seq/s, ETA: {eta}`. */
export function batchLine(i: number, done: number, total: number, eff: number, tok: number, seq: number, eta: string) {
  const p = pyFixed((done / total) * 100, 1)
  return `Batch ${i}: ${done}/${total} (${p}%) | ${pyFixed(eff * 100, 1)}% pack eff, ${pyGrouped(Math.round(tok))} tok/s, ${pyFixed(seq, 1)} seq/s, ETA: ${eta}`
}

export const UPSTREAM_STAGES = PIPELINE_STAGES

/** tqdm's `format_interval`: `MM:SS`, or `H:MM:SS` from an hour on. */
export function tqdmInterval(seconds: number): string {
  const s = Math.trunc(seconds)
  const [h, m, r] = [Math.trunc(s / 3600), Math.trunc((s % 3600) / 60), s % 60]
  const two = (x: number) => String(x).padStart(2, '0')
  return h ? `${h}:${two(m)}:${two(r)}` : `${two(m)}:${two(r)}`
}

/**
 * One redraw of a tqdm bar in the layout VirNucPro's bars use (utils/progress.py: `{l_bar}{bar}| {n_fmt}/{total_fmt}
 * [{elapsed}<{remaining}, {rate_fmt}]`), as tqdm writes it: `\r` first, no line end. `desc` '' draws no label.
 */
export function tqdmRedraw(o: { desc: string; n: number; total: number; elapsedS: number; unit?: string }): string {
  const unit = o.unit ?? 'it'
  const pct = o.total > 0 ? Math.round((o.n / o.total) * 100) : 0
  const cells = o.total > 0 ? Math.floor((o.n / o.total) * 40) : 0
  const bar = `${'\u2588'.repeat(Math.min(40, cells))}${' '.repeat(Math.max(0, 40 - cells))}`
  const rate = o.elapsedS > 0 && o.n > 0 ? o.n / o.elapsedS : null
  const rateText =
    rate === null ? `?${unit}/s` : rate >= 1 ? `${rate.toFixed(2)}${unit}/s` : `${(1 / rate).toFixed(2)}s/${unit}`
  const remaining = rate === null ? '?' : tqdmInterval((o.total - o.n) / rate)
  const label = o.desc === '' ? '' : `${o.desc}: `
  return `\r${label}${String(pct).padStart(3)}%|${bar}| ${o.n}/${o.total} [${tqdmInterval(o.elapsedS)}<${remaining}, ${rateText}]`
}
