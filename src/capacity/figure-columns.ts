/**
 * One unit per column, and one rule for it in every text output (capacity.md, index.html, the terminal, the `capacity`
 * command): time in hours at a projected size (45 K, 6 M, the user's own sample), in seconds at a measured one (what
 * a run took). A column's digits are chosen once from all its values, so its figures line up and its smallest still
 * reads (0.0427 h beside 5.47 h, not 0.0 h). Pure.
 */

const HOUR_MS = 3_600_000
const SECOND_MS = 1000

export type TimeUnit = 's' | 'h'

/** Sizes are sequence-equivalents (fractions for measured subsets): matched to a relative 1e-9. */
const atOrBelow = (a: number, b: number) => a <= b + 1e-9 * Math.max(1, Math.abs(b))

/** Seconds where the size was measured (at or below the largest measured size), hours where it is projected. */
export const timeUnitAt = (sequences: number, measuredSequences: number | null): TimeUnit =>
  measuredSequences !== null && atOrBelow(sequences, measuredSequences) ? 's' : 'h'

export const msPer = (unit: TimeUnit) => (unit === 'h' ? HOUR_MS : SECOND_MS)

/**
 * Decimals for a column: enough that its smallest value shows three significant digits, at most `max` (a value of
 * 0 or a column without values: two).
 */
export function columnDigits(values: readonly (number | null | undefined)[], max = 4): number {
  const finite = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v) && v !== 0)
  if (finite.length === 0) return 2
  const smallest = Math.min(...finite.map(Math.abs))
  const digits = 2 - Math.floor(Math.log10(smallest))
  return Math.min(max, Math.max(0, digits))
}

/** `value [low, high]` at `digits` decimals, in the column's unit (named in its heading, not in the cell). */
export function figureCell(
  value: number | null | undefined,
  ci: { low: number | null; high: number | null } | null | undefined,
  digits: number,
): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return 'n/a'
  const f = (x: number) => x.toFixed(digits)
  const range = ci && ci.low !== null && ci.high !== null ? ` [${f(ci.low)}, ${f(ci.high)}]` : ''
  return `${f(value)}${range}`
}

/** A time column's formatter: every cell in `unit`, the digits read from all its values (ms; seconds to the ms). */
export function timeColumn(unit: TimeUnit, valuesMs: readonly (number | null | undefined)[]) {
  const by = msPer(unit)
  const digits = columnDigits(
    valuesMs.map((v) => (typeof v === 'number' ? v / by : null)),
    unit === 's' ? 3 : 4,
  )
  return (ms: number | null | undefined, ci?: { low: number; high: number } | null): string =>
    typeof ms === 'number'
      ? figureCell(ms / by, ci ? { low: ci.low / by, high: ci.high / by } : null, digits)
      : figureCell(null, null, digits)
}
