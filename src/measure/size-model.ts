/**
 * Size model: how the time of each part of a run grows with the input, fitted from whole runs at two or more input
 * sizes (nested subsets of one input). Every named series (wall time, each stage, GPU-busy time...) is a line
 * `value(size) = fixed + perUnit x size`, through the mean of each size's runs (least squares, each size weighted by
 * its run count, which is ordinary least squares over all runs).
 *
 * Uncertainty covers run-to-run variation, which one run's batch events cannot show (start-up differs by seconds from
 * one process to the next): each size's mean is drawn from its sampling distribution, a multivariate t around the
 * observed mean with the runs' own covariance (the Bayesian posterior of a mean under a flat prior, whose intervals are
 * Student's t intervals), and the lines are refitted per draw. The draw is built from the runs themselves (a
 * Gaussian-multiplier sum of their deviations from the mean, scaled by sqrt(nu / chi2_nu), nu = runs - 1), so every
 * series keeps its correlation with the others (a slow start-up moves the wall time and the stage that paid it
 * together) however few runs there are. Derived figures (a projection, a ratio of two configurations, a break-even
 * size, a utilization) are computed per draw, and their percentile interval is the CI. Coverage is checked by
 * simulation in test/measure/size-model.test.ts.
 *
 * Needs two runs at a size for that size's spread; with one run at any size the fit stands but has no CI (said in
 * `ciProblem`).
 */
import { MeasureInputError } from './errors.ts'
import { createRandomSource, type RandomSource } from './rng.ts'
import { normal, tScale } from './size-draws.ts'

/** One run: its input size (any unit, e.g. GPU work) and the series it measured. */
export interface SizedRun {
  size: number
  values: Readonly<Record<string, number>>
}

export interface Line {
  fixed: number
  perUnit: number
}

/** The runs of one size: their count, and per series the mean and standard deviation. */
export interface SizeGroup {
  size: number
  runs: number
  mean: Record<string, number>
  sd: Record<string, number>
}

/** How a series grows: a line over sizes, or a constant (its slope held at 0: start-up by construction). */
export type SeriesShape = 'line' | 'constant'

export interface SizeModel {
  series: string[]
  shapes: Record<string, SeriesShape>
  groups: SizeGroup[]
  /** The point fit of each series. */
  fits: Record<string, Line>
  /** Per series, `draws` refits (fixed and perUnit in parallel arrays); null when some size has one run. */
  draws: Record<string, { fixed: Float64Array; perUnit: Float64Array }> | null
  drawCount: number
  /** Why there is no CI; null when there is one. */
  ciProblem: string | null
}

export interface SizeModelOptions {
  /** Series to fit; default every series of the first run. */
  series?: readonly string[]
  draws?: number
  random?: RandomSource
  /** The series whose spread sets the draws' degrees of freedom (the one the headline figures come from); default the first. */
  referenceSeries?: string
  /** Series fitted as constants (the mean of all runs); every other series is a line. */
  constant?: readonly string[]
  /**
   * Lines and constants that cannot be negative (times): each is fitted by least squares under fixed >= 0 and
   * perUnit >= 0 (a series of `floorAtSmallest`: a value >= 0 at the smallest measured size instead of fixed >= 0), in
   * the point fit and in every draw, so no part of a time is ever negative at a size the model speaks for, nor shrinks
   * as the input grows. Default false.
   */
  nonNegative?: boolean
  /**
   * With nonNegative: series whose line may cross 0 below the smallest measured size (fitNonNegativeLine says which
   * and why); the model then speaks for them from that size on only.
   */
  floorAtSmallest?: readonly string[]
}

export const SIZE_MODEL_DRAWS = 4_000

function validate(runs: readonly SizedRun[], series: readonly string[]): void {
  if (series.length === 0) throw new MeasureInputError('size model', 'no series to fit')
  runs.forEach((run, i) => {
    if (!(Number.isFinite(run.size) && run.size > 0))
      throw new MeasureInputError('size model', `run ${i}: size must be finite and > 0, got ${run.size}`)
    for (const name of series) {
      const value = run.values[name]
      if (value === undefined || !Number.isFinite(value))
        throw new MeasureInputError('size model', `run ${i} (size ${run.size}): series '${name}' is ${value}`)
    }
  })
}

/** Runs grouped by size, ascending. */
function groupBySize(runs: readonly SizedRun[]): SizedRun[][] {
  const bySize = new Map<number, SizedRun[]>()
  for (const run of runs) bySize.set(run.size, [...(bySize.get(run.size) ?? []), run])
  return [...bySize.entries()].sort(([a], [b]) => a - b).map(([, group]) => group)
}

/** Weighted least squares line through points (x, y) with weights w. */
export function fitWeightedLine(x: ArrayLike<number>, y: ArrayLike<number>, w: ArrayLike<number>): Line {
  let sw = 0
  let sx = 0
  let sy = 0
  for (let i = 0; i < x.length; i++) {
    sw += w[i]!
    sx += w[i]! * x[i]!
    sy += w[i]! * y[i]!
  }
  const mx = sx / sw
  const my = sy / sw
  let sxy = 0
  let sxx = 0
  for (let i = 0; i < x.length; i++) {
    sxy += w[i]! * (x[i]! - mx) * (y[i]! - my)
    sxx += w[i]! * (x[i]! - mx) ** 2
  }
  const perUnit = sxy / sxx
  return { fixed: my - perUnit * mx, perUnit }
}

/** The weighted mean of points y with weights w, as a line of slope 0. */
function fitConstant(y: ArrayLike<number>, w: ArrayLike<number>): Line {
  let sw = 0
  let sy = 0
  for (let i = 0; i < y.length; i++) {
    sw += w[i]!
    sy += w[i]! * y[i]!
  }
  return { fixed: sy / sw, perUnit: 0 }
}

function weightedSse(line: Line, x: ArrayLike<number>, y: ArrayLike<number>, w: ArrayLike<number>): number {
  let sse = 0
  for (let i = 0; i < x.length; i++) sse += w[i]! * (y[i]! - line.fixed - line.perUnit * x[i]!) ** 2
  return sse
}

/**
 * Weighted least squares under perUnit >= 0 and a line not negative from `from` on (fixed + perUnit x from >= 0; the
 * smallest size the model speaks for: the smallest measured one, or 0). With two parameters the constrained optimum is
 * the unconstrained one when it is feasible, else the best of the boundary fits: through (from, 0), flat (perUnit =
 * 0), or both 0. Why not fixed >= 0: a part read as a span of its own progress lines (a stage's steady part) runs
 * below proportion at a small size where few lines bound it (its first batch, the longest, outside the span), so its
 * line through the sizes crosses 0 just below the smallest one; forced through the origin it overshoots that size,
 * and the sum of the parts no longer reproduces the runs there.
 */
export function fitNonNegativeLine(x: ArrayLike<number>, y: ArrayLike<number>, w: ArrayLike<number>, from = 0): Line {
  const free = fitWeightedLine(x, y, w)
  if (free.perUnit >= 0 && free.fixed + free.perUnit * from >= 0) return free
  let sxy = 0
  let sxx = 0
  for (let i = 0; i < x.length; i++) {
    sxy += w[i]! * (x[i]! - from) * y[i]!
    sxx += w[i]! * (x[i]! - from) ** 2
  }
  const flat = fitConstant(y, w)
  const slope = sxx > 0 ? Math.max(0, sxy / sxx) : 0
  const candidates: Line[] = [
    { fixed: from > 0 ? -slope * from : 0, perUnit: slope },
    { fixed: Math.max(0, flat.fixed), perUnit: 0 },
  ]
  return candidates.reduce((best, c) => (weightedSse(c, x, y, w) < weightedSse(best, x, y, w) ? c : best))
}

/**
 * Welch-Satterthwaite degrees of freedom of the sizes' means of `series` (v_j = sd_j^2 / n_j): near the pooled runs -
 * sizes when the sizes' spreads are alike, down to one size's runs - 1 when its spread dominates. Simulated 95% coverage of a projection from 3
 * runs at each of 2 sizes, spreads 1:1 / 1:2 / 1:4 / 4:1: see test/measure/size-model.test.ts and src/measure/README.md.
 */
function welchDegrees(groups: readonly SizeGroup[], series: string): number {
  const v = groups.map((g) => g.sd[series]! ** 2 / g.runs)
  const total = v.reduce((a, x) => a + x, 0)
  const spread = groups.reduce((a, g, j) => a + v[j]! ** 2 / (g.runs - 1), 0)
  const pooled = groups.reduce((a, g) => a + g.runs - 1, 0)
  const smallest = Math.min(...groups.map((g) => g.runs - 1))
  if (!(total > 0 && spread > 0)) return pooled
  return Math.max(smallest, Math.min(pooled, total ** 2 / spread))
}

/**
 * Fits every series' line over sizes, with draws for CIs.
 * @throws MeasureInputError for fewer than two distinct sizes, a size that is not positive, or a missing or
 * non-finite value.
 */
export function fitSizeModel(runs: readonly SizedRun[], options: SizeModelOptions = {}): SizeModel {
  const series = [...(options.series ?? Object.keys(runs[0]?.values ?? {}))]
  validate(runs, series)
  const grouped = groupBySize(runs)
  if (grouped.length < 2)
    throw new MeasureInputError('size model', `needs runs at >= 2 input sizes, got ${grouped.length}`)
  const sizes = grouped.map((g) => g[0]!.size)
  const weights = grouped.map((g) => g.length)
  const means = grouped.map((g) => series.map((s) => g.reduce((a, r) => a + r.values[s]!, 0) / g.length))
  const groups: SizeGroup[] = grouped.map((g, j) => ({
    size: sizes[j]!,
    runs: g.length,
    mean: Object.fromEntries(series.map((s, k) => [s, means[j]![k]!])),
    sd: Object.fromEntries(
      series.map((s, k) => {
        const m = means[j]![k]!
        const ss = g.reduce((a, r) => a + (r.values[s]! - m) ** 2, 0)
        return [s, g.length > 1 ? Math.sqrt(ss / (g.length - 1)) : Number.NaN]
      }),
    ),
  }))
  const shapes: Record<string, SeriesShape> = Object.fromEntries(
    series.map((s) => [s, options.constant?.includes(s) ? 'constant' : 'line']),
  )
  const floor = (line: Line): Line => (options.nonNegative ? { ...line, fixed: Math.max(0, line.fixed) } : line)
  const fitSeries = (s: string, y: ArrayLike<number>): Line => {
    if (shapes[s] === 'constant') return floor(fitConstant(y, weights))
    if (!options.nonNegative) return fitWeightedLine(sizes, y, weights)
    return fitNonNegativeLine(sizes, y, weights, options.floorAtSmallest?.includes(s) ? sizes[0] : 0)
  }
  const fits = Object.fromEntries(
    series.map((s, k) => [
      s,
      fitSeries(
        s,
        means.map((m) => m[k]!),
      ),
    ]),
  )
  const single = groups.find((g) => g.runs < 2)
  const drawCount = options.draws ?? SIZE_MODEL_DRAWS
  if (single)
    return {
      series,
      shapes,
      groups,
      fits,
      draws: null,
      drawCount: 0,
      ciProblem: `one run at size ${single.size}: no spread`,
    }
  const random = options.random ?? createRandomSource('size-model')
  const draws = Object.fromEntries(
    series.map((s) => [s, { fixed: new Float64Array(drawCount), perUnit: new Float64Array(drawCount) }]),
  )
  // Each size keeps its own spread (start-up noise is the same at every size, batch noise grows with it); one
  // chi-square scale per draw makes it a multivariate t, with Welch-Satterthwaite's degrees of freedom (welchDegrees).
  const deviations = grouped.map((g, j) => g.map((run) => series.map((s, k) => run.values[s]! - means[j]![k]!)))
  const nu = welchDegrees(groups, options.referenceSeries ?? series[0]!)
  const drawnMeans = series.map(() => new Float64Array(grouped.length))
  const shift = new Float64Array(series.length)
  for (let b = 0; b < drawCount; b++) {
    const scale = tScale(nu, random)
    grouped.forEach((g, j) => {
      shift.fill(0)
      for (const d of deviations[j]!) {
        const z = normal(random)
        for (let k = 0; k < series.length; k++) shift[k]! += z * d[k]!
      }
      const perRun = scale / Math.sqrt(g.length * (g.length - 1))
      for (let k = 0; k < series.length; k++) drawnMeans[k]![j] = means[j]![k]! + perRun * shift[k]!
    })
    series.forEach((s, k) => {
      const line = fitSeries(s, drawnMeans[k]!)
      draws[s]!.fixed[b] = line.fixed
      draws[s]!.perUnit[b] = line.perUnit
    })
  }
  return { series, shapes, groups, fits, draws, drawCount, ciProblem: null }
}
