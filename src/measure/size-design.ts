/**
 * Which run buys the most precision for a projection far beyond the measured sizes: the expected CI of a line's value
 * at x0 after a candidate run, per unit of its cost. The size model (size-model.ts) fits each series as a line through
 * the sizes' means, weighted by their run counts; this is that estimator's variance, so a design is scored for the fit
 * the suite reads, not an idealised one.
 *
 * Why the largest size matters most. The value at x0 is ȳ + b̂ (x0 - x̄); for x0 far beyond the data its variance is
 * nearly x0² Var(b̂) = x0² σ² / Sxx: runs belong at the ends of the range, and a wider range (a larger largest size)
 * shrinks Var(b̂) quadratically while its runs cost only linearly more (Hoel and Levine's endpoint design).
 *
 * How large (the issue's "about 4F", checked). A run at size x costs T(x) = F + b x (start-up F, per-unit cost b).
 * Two ends x1 < x2 with n1, n2 runs give Var(b̂) = (σ1²/n1 + σ2²/n2) / (x2 - x1)², at a cost C = n1 T1 + n2 T2. For
 * a given cost the variance is least with n_i ∝ σ_i / √T_i (Lagrange, or Cauchy-Schwarz), where
 * C · Var(b̂) = (σ1 √T1 + σ2 √T2)² b² / (T2 - T1)², so the cost of a given precision is least where
 * h = (σ1 √T1 + σ2 √T2) / (T2 - T1) is. Then, by the noise model:
 * - sd proportional to run time (σ = c T: a host slowdown scales the whole run): h ∝ (T1^1.5 + T2^1.5) / (T2 - T1).
 *   It grows with T1, so the small end is as small as possible; in T2, with u = √(T2 / T1), dh/dT2 = 0 gives
 *   u³ - 3u - 2 = (u - 2)(u + 1)² = 0: u = 2, **T2 = 4 T1**, with twice the runs at the large end (8/9 of the cost).
 *   So the claim holds, with F read as the smallest run's time: the largest run should cost 4 F when the smallest run
 *   is nearly all start-up (T1 ≈ F), and 4 T1 in general.
 * - constant sd (start-up jitter only): h = σ / (√T2 - √T1), decreasing in T2: no optimum, every larger size buys
 *   more per GPU-minute, up to the budget (and the 2 runs a size needs for its spread). The 4F rule does not hold.
 * - variance proportional to run time (σ² = c T: independent per-batch jitter that adds up): h = √c (T1 + T2) /
 *   (T2 - T1), also decreasing: no optimum either.
 * - a mix (σ² = s0² + c² T²) lies between: its optimum is above 4 T1.
 * test/measure/size-design.test.ts checks the first two by brute force over two-point designs with whole runs.
 */
import { tQuantile } from './distributions.ts'
import { MeasureInputError } from './errors.ts'

/** One size of a design: where (any unit, e.g. sequences), how many runs, and one run's variance there. */
export interface DesignSize {
  size: number
  runs: number
  /**
   * The variance of one run's value at this size: the runs' own spread where they have one, a noise model's where
   * they do not (a size not measured yet), e.g. (cv x the run's expected time)² for noise proportional to run time.
   */
  runVariance: number
}

function validate(design: readonly DesignSize[]): void {
  design.forEach((d, i) => {
    if (!(Number.isFinite(d.size) && d.size > 0))
      throw new MeasureInputError('design', `size ${i}: must be finite and > 0, got ${d.size}`)
    if (!(Number.isInteger(d.runs) && d.runs >= 1))
      throw new MeasureInputError('design', `size ${i} (${d.size}): runs must be an integer >= 1, got ${d.runs}`)
    if (!(Number.isFinite(d.runVariance) && d.runVariance >= 0))
      throw new MeasureInputError('design', `size ${i} (${d.size}): run variance must be >= 0, got ${d.runVariance}`)
  })
  const sizes = new Set(design.map((d) => d.size)).size
  if (sizes < 2) throw new MeasureInputError('design', `needs >= 2 distinct sizes, got ${sizes}`)
}

/** Entries at the same size merged (runs added, the first entry's variance kept): the design as the model groups it. */
export function mergeDesign(design: readonly DesignSize[]): DesignSize[] {
  const bySize = new Map<number, DesignSize>()
  for (const d of design) {
    const known = bySize.get(d.size)
    bySize.set(d.size, known ? { ...known, runs: known.runs + d.runs } : { ...d })
  }
  return [...bySize.values()].sort((a, b) => a.size - b.size)
}

/**
 * The variance of the fitted line's value at x0: the line through the sizes' means weighted by run count (ordinary
 * least squares over all runs), each size's mean with variance runVariance / runs.
 * @throws MeasureInputError for fewer than two distinct sizes, a size that is not > 0, runs that are not >= 1, or a
 * variance that is not >= 0.
 */
export function predictionVariance(design: readonly DesignSize[], x0: number): number {
  validate(design)
  const merged = mergeDesign(design)
  const n = merged.reduce((a, d) => a + d.runs, 0)
  const mean = merged.reduce((a, d) => a + d.runs * d.size, 0) / n
  const sxx = merged.reduce((a, d) => a + d.runs * (d.size - mean) ** 2, 0)
  // The value at x0 is sum_j c_j ȳ_j.
  return merged.reduce((a, d) => {
    const c = d.runs * (1 / n + ((x0 - mean) * (d.size - mean)) / sxx)
    return a + (c * c * d.runVariance) / d.runs
  }, 0)
}

/**
 * The degrees of freedom the size model's t draws take for this design (size-model.ts welchDegrees): Welch and
 * Satterthwaite's over the sizes' means, between the fewest runs at a size - 1 and all runs - sizes. 0 when a size has
 * one run (no CI then).
 */
export function designDegrees(design: readonly DesignSize[]): number {
  const merged = mergeDesign(design)
  const v = merged.map((d) => d.runVariance / d.runs)
  const smallest = Math.min(...merged.map((d) => d.runs - 1))
  const pooled = merged.reduce((a, d) => a + d.runs - 1, 0)
  if (smallest < 1) return 0
  const total = v.reduce((a, x) => a + x, 0)
  const spread = merged.reduce((a, d, j) => a + v[j]! ** 2 / (d.runs - 1), 0)
  if (!(total > 0 && spread > 0)) return pooled
  return Math.max(smallest, Math.min(pooled, total ** 2 / spread))
}

/**
 * The CI half-width expected after measuring `next` instead of `current`, given the half-width `current` gave: scaled
 * by the ratio of the estimator's standard deviations and of the t quantiles (more runs, more degrees of freedom), so
 * what the model's CI holds beyond this line's variance (its other parts, its constants) scales along.
 * @returns Infinity when either design has no degrees of freedom (a size with one run), or `halfWidth` is not finite.
 */
export function expectedHalfWidth(o: {
  halfWidth: number
  current: readonly DesignSize[]
  next: readonly DesignSize[]
  x0: number
  level?: number
}): number {
  const q = 1 - (1 - (o.level ?? 0.95)) / 2
  const [nu, nuNext] = [designDegrees(o.current), designDegrees(o.next)]
  if (nu <= 0 || nuNext <= 0 || !Number.isFinite(o.halfWidth)) return Number.POSITIVE_INFINITY
  const now = predictionVariance(o.current, o.x0)
  if (!(now > 0)) return o.halfWidth
  const ratio = Math.sqrt(predictionVariance(o.next, o.x0) / now)
  return o.halfWidth * ratio * (tQuantile(q, nuNext) / tQuantile(q, nu))
}

/** A run (or runs) one could measure next, and what it costs (any unit, e.g. GPU-minutes). */
export interface Candidate extends DesignSize {
  /** The design's own name for it, e.g. 'repeat' or 'new size'. */
  kind: string
  cost: number
}

/** What a candidate is expected to give. */
export interface CandidateScore {
  /** The expected relative CI half-width after it. */
  halfWidth: number
  /** How much of the way to the target it is expected to go: (max(now, target) - max(after, target)) / target. */
  gain: number
  gainPerCost: number
}

export type ScoredCandidate<C extends Candidate = Candidate> = C & CandidateScore

/**
 * Scores candidates by expected CI reduction per unit of cost, best first. The reduction counts only down to the
 * target (beyond it a narrower CI decides nothing more), and is relative to the target, so the gains of
 * configurations with different targets compare.
 * @throws MeasureInputError for a target that is not > 0, a candidate cost that is not > 0, or a bad design.
 */
export function scoreCandidates<C extends Candidate>(o: {
  /** The relative CI half-width now. */
  halfWidth: number
  target: number
  design: readonly DesignSize[]
  x0: number
  candidates: readonly C[]
  level?: number
  /**
   * The caller's correction of a candidate's expected half-width, for noise the line's rule does not model (the
   * capacity design's builds per file, whose share narrows with any run: capacity/design.ts withBuildsShare).
   */
  adjust?: (halfWidth: number, candidate: C) => number
}): ScoredCandidate<C>[] {
  if (!(o.target > 0)) throw new MeasureInputError('design', `target must be > 0, got ${o.target}`)
  const excess = (h: number) => Math.max(h, o.target)
  return o.candidates
    .map((c): ScoredCandidate<C> => {
      if (!(c.cost > 0)) throw new MeasureInputError('design', `candidate ${c.kind} at ${c.size}: cost ${c.cost}`)
      const next = [...o.design, { size: c.size, runs: c.runs, runVariance: c.runVariance }]
      const line = expectedHalfWidth({ ...o, current: o.design, next })
      const halfWidth = o.adjust ? o.adjust(line, c) : line
      // No CI now (or none after): nothing to scale from, so no expected gain either.
      const known = Number.isFinite(o.halfWidth) && Number.isFinite(halfWidth)
      const gain = known ? (excess(o.halfWidth) - excess(halfWidth)) / o.target : 0
      return { ...c, halfWidth, gain, gainPerCost: gain / c.cost }
    })
    .sort((a, b) => b.gainPerCost - a.gainPerCost)
}
