/** Number formatting shared by the text renderers. */

export function fmtMs(ms: number | null): string {
  if (ms === null) return 'n/a'
  if (ms >= 3_600_000) return `${(ms / 3_600_000).toFixed(2)} h`
  if (ms >= 1_000) return `${(ms / 1_000).toFixed(2)} s`
  return `${ms.toFixed(0)} ms`
}

export function fmtPct(value: number | null, digits = 1): string {
  return value === null ? 'n/a' : `${value.toFixed(digits)}%`
}

export function fmtNum(value: number | null, digits = 2): string {
  return value === null ? 'n/a' : value.toFixed(digits)
}

export function fmtGiB(bytes: number | null): string {
  return bytes === null ? 'n/a' : `${(bytes / 2 ** 30).toFixed(1)} GiB`
}

export function fmtRange(ci: { low: number; high: number } | null, f: (v: number) => string): string {
  return ci === null ? '' : ` [${f(ci.low)}, ${f(ci.high)}]`
}

/** Four significant digits, no exponent for everyday sizes. */
export function fmtValue(value: number): string {
  if (!Number.isFinite(value)) return String(value)
  const abs = Math.abs(value)
  if (abs !== 0 && (abs >= 1e7 || abs < 1e-3)) return value.toExponential(3)
  return abs >= 1000 ? value.toFixed(0) : Number(value.toPrecision(4)).toString()
}
