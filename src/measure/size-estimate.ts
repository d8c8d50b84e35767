/**
 * Figures read from size models: any function of one or more models' lines, with the percentile CI of the models'
 * draws taken together (draw b of every model at once), and the value of one series at a size.
 */
import { MeasureInputError } from './errors.ts'
import { validateLevel } from './samples.ts'
import type { Line, SizeModel } from './size-model.ts'

/** A series' line, read from a point fit or one draw. */
export type LineOf = (series: string) => Line

/** An estimate with its percentile CI (null when the models have no draws). */
export interface SizeEstimate {
  estimate: number
  ci: { low: number; high: number; level: number } | null
}

function lineReader(model: SizeModel, b: number | null): LineOf {
  return (name) => {
    const fit = model.fits[name]
    if (!fit) throw new MeasureInputError('size model', `no series '${name}' (has: ${model.series.join(', ')})`)
    if (b === null || !model.draws) return fit
    const d = model.draws[name]!
    return { fixed: d.fixed[b]!, perUnit: d.perUnit[b]! }
  }
}

/**
 * Any figure computed from one or more models' lines (`f` gets one reader per model, in order), with its CI from the
 * draws: draw b of every model together (independent models: independent runs). Draws where `f` is NaN are left out;
 * +-Infinity stays (e.g. "never breaks even").
 * @throws MeasureInputError for a bad level or an unknown series.
 */
export function estimateFrom(
  models: readonly SizeModel[],
  f: (...lines: LineOf[]) => number,
  level = 0.95,
): SizeEstimate {
  validateLevel(level)
  const estimate = f(...models.map((m) => lineReader(m, null)))
  if (models.some((m) => !m.draws)) return { estimate, ci: null }
  const count = Math.min(...models.map((m) => m.drawCount))
  const values: number[] = []
  for (let b = 0; b < count; b++) {
    const v = f(...models.map((m) => lineReader(m, b)))
    if (!Number.isNaN(v)) values.push(v)
  }
  if (values.length < count * 0.9) return { estimate, ci: null }
  const sorted = Float64Array.from(values).sort()
  const tail = (1 - level) / 2
  return { estimate, ci: { low: quantileOf(sorted, tail), high: quantileOf(sorted, 1 - tail), level } }
}

/** Type-7 quantile of ascending values that may hold +-Infinity (interpolating towards one would give NaN). */
function quantileOf(sorted: Float64Array, p: number): number {
  const h = (sorted.length - 1) * p
  const lo = sorted[Math.floor(h)]!
  const hi = sorted[Math.ceil(h)]!
  if (lo === hi || !Number.isFinite(lo) || !Number.isFinite(hi)) return h - Math.floor(h) < 0.5 ? lo : hi
  return lo + (h - Math.floor(h)) * (hi - lo)
}

/** The value of `series` at `size`, with its CI. */
export function projectSeries(model: SizeModel, series: string, size: number, level = 0.95): SizeEstimate {
  return estimateFrom([model], (line) => valueAt(line(series), size), level)
}

export const valueAt = (line: Line, size: number) => line.fixed + line.perUnit * size
