/**
 * The size model's own error out of sample (issue 48), carried into every interval beyond the largest measured size.
 *
 * The size model's draws cover run-to-run noise at the measured sizes: a model that is the wrong shape (a cost per
 * sequence that falls as batches fill, a build paid per file) is projected with a narrow interval that misses, and
 * the farther the projection, the more it misses. Extra-P's answer is to judge a model by how it predicts measured
 * points it was not fitted to. Here the largest measured size is left out, the configuration refitted on the smaller
 * ones and projected there (the same direction as the projection to 45 K and 6 M: upwards). Its error, read against
 * the growth the refit predicted from the next size down, is the misfit's share of the growth: a line whose slope is
 * 10% off predicts the step from one size to the next 10% off, and the step from the largest size to 6 M too. Every
 * interval beyond the largest measured size is widened by that share of its own growth over the largest size
 * (combined with the noise half-width in quadrature: the refit's error holds some of the noise, so this errs wide).
 *
 * Needs three sizes: two fit the refit. With two the model's error cannot be seen, and the answer says so.
 */
import type { SizeEstimate } from '../measure/index.ts'
import type { HeldOutCheck } from './held-out.ts'
import { type ConfigCapacity, type ConfigInput, configCapacity, type SizeMisfit } from './model.ts'

export type { SizeMisfit }

const WALL = 'wall'
const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length

/** The misfit of one configuration's model at its largest size, or null with fewer than three sizes. */
export function sizeMisfit(
  input: ConfigInput,
  gpuStages: readonly string[],
  seed: string,
  level: number,
): SizeMisfit | null {
  const sizes = [...new Set(input.runs.map((r) => r.size))].sort((a, b) => a - b)
  if (sizes.length < 3) return null
  const leftOut = sizes.at(-1)!
  const previous = sizes.at(-2)!
  const refit = configCapacity(
    { ...input, runs: input.runs.filter((r) => r.size !== leftOut) },
    gpuStages,
    [leftOut],
    `${seed}/misfit`,
    undefined,
    level,
    false,
  )
  if (!refit) return null
  const at = (s: number) => refit.figures.at.find((a) => a.sequences === s)?.wallMs.estimate
  const predictedMs = at(leftOut)
  const fromMs = at(previous)
  const walls = input.runs.filter((r) => r.size === leftOut).map((r) => r.values[WALL])
  if (predictedMs === undefined || fromMs === undefined || walls.some((w) => w === undefined)) return null
  const measuredMs = mean(walls as number[])
  // The step the refit predicted; where it predicted none (a flat refit), the step the runs took.
  const step = Math.max(predictedMs - fromMs, measuredMs - fromMs, 1e-9 * Math.max(1, Math.abs(fromMs)))
  return {
    source: 'leave-one-out',
    leftOut,
    fittedSizes: sizes.slice(0, -1),
    predictedMs,
    measuredMs,
    growthErrorPct: (100 * (measuredMs - predictedMs)) / step,
  }
}

/**
 * The misfit a held-out check shows, in the same terms: the run's error against the model's projection there, over
 * the growth the model projected from its largest measured size to it. Null without a check of that configuration.
 */
export function heldOutMisfit(c: ConfigCapacity, checks: readonly HeldOutCheck[]): SizeMisfit | null {
  const check = checks.find((h) => h.label === c.label && h.projectedMs !== null)
  const largest = c.at[0]
  if (!check || !largest || !(check.sequences > largest.sequences)) return null
  const predictedMs = check.projectedMs!.estimate
  const step = Math.max(predictedMs - largest.wallMs.estimate, check.medianWallMs - largest.wallMs.estimate, 1e-9)
  return {
    source: 'held-out',
    leftOut: check.sequences,
    fittedSizes: c.sizes.map((s) => s.sequences),
    predictedMs,
    measuredMs: check.medianWallMs,
    growthErrorPct: (100 * (check.medianWallMs - predictedMs)) / step,
  }
}

/** An estimate beyond the largest measured size with the misfit's share of its growth added to its interval. */
export function widenedEstimate(e: SizeEstimate, largestMs: number, misfit: SizeMisfit): SizeEstimate {
  if (!e.ci) return e
  return { estimate: e.estimate, ci: { level: e.ci.level, ...widened(e.estimate, e.ci, largestMs, misfit) } }
}

function widened(estimate: number, ci: { low: number; high: number }, largestMs: number, misfit: SizeMisfit) {
  const extra = (Math.abs(misfit.growthErrorPct) / 100) * Math.max(0, estimate - largestMs)
  return {
    low: Math.max(0, estimate - Math.hypot(estimate - ci.low, extra)),
    high: estimate + Math.hypot(ci.high - estimate, extra),
  }
}

/** A configuration's figures with every wall-time interval beyond its largest measured size carrying the misfit. */
export function withMisfit(c: ConfigCapacity, misfit: SizeMisfit | null): ConfigCapacity {
  if (!misfit) return { ...c, misfit: null }
  const largest = c.at[0]!
  const widen = (a: { sequences: number; wallMs: SizeEstimate }) =>
    a.sequences > largest.sequences ? widenedEstimate(a.wallMs, largest.wallMs.estimate, misfit) : a.wallMs
  return {
    ...c,
    misfit,
    at: c.at.map((a) => ({ ...a, wallMs: widen(a) })),
    curve: c.curve.map((p) =>
      p.sequences > largest.sequences && p.low !== null && p.high !== null
        ? { ...p, ...widened(p.wallMs, { low: p.low, high: p.high }, largest.wallMs.estimate, misfit) }
        : p,
    ),
  }
}
