/**
 * Where the capacity design looks for a bend in the cost (line-fit.ts): two sizes always fit a line, so before runs
 * narrow a CI around one, the measured range reaches the size whose run takes REACH_RUN_TIME_RATIO x the smallest
 * run's time (or, where the input holds no more, gets a third size in its middle); and once the CIs are on target, a
 * lack-of-fit test in doubt gets runs where they tell a bend from noise best. Neither choice is the CI rule's
 * (capacity/design.ts): they are what keeps its line honest.
 */
import {
  type DesignChoice,
  type DesignKind,
  type DesignView,
  expectedWallMs,
  halfWidthAfter,
  notALine,
  REACH_RUN_TIME_RATIO,
  reachRecords,
  roundRecords,
  runVariance,
  targetOf,
} from './design.ts'
import type { ConfigCapacity } from './model.ts'
import { LINE_FIT_P } from './support.ts'

/** A range whose largest run takes at least this share of the reach counts as reaching it. */
const REACH_TOLERANCE = 0.75
/** Runs of a size added only so a bend can show (its CI gain is not the point). */
export const BEND_SIZE_RUNS = 2
/**
 * A lack-of-fit p-value below this (and at or above LINE_FIT_P) leaves the line in doubt: worth runs where it bends.
 * Chosen with MIN_BEND_CHECK_RUNS on the design study (test/capacity/design-study.long.test.ts, 20 seeds a target):
 * with 0.2 and 3 runs, a per-sequence cost growing as VirNucPro's did passed as a line in 2 seeds (p = 0.23 and 0.25:
 * noise had made the small sizes' chord steep) and was projected at 12.0 h against a truth of 18.3; with 0.3 and 4,
 * 20 of 20 were caught, while a line got no false alarm and cost a median 34 GPU-minutes to its target instead of 27.
 */
export const LINE_FIT_UNSURE_P = 0.3
/** Runs at a size past which a doubt about the line is left as it is. */
export const MAX_BEND_CHECK_RUNS = 8
/** Runs each size of the bend's contrast needs before a line is taken as fitting at all (see LINE_FIT_UNSURE_P). */
export const MIN_BEND_CHECK_RUNS = 4

function choice(
  view: DesignView,
  kind: DesignKind,
  at: { records: number; sequences: number; runs: number },
  o: { held: number; production: number },
): DesignChoice {
  const c = view.figures
  const gpuMinutes = (at.runs * expectedWallMs(c, at.sequences) * o.held) / 60_000
  return {
    kind,
    size: at.sequences,
    runs: at.runs,
    runVariance: runVariance(c)(at.sequences),
    records: at.records,
    cost: gpuMinutes,
    gpuMinutes,
    halfWidth: halfWidthAfter(view, o.production, at.sequences, at.runs),
    gain: 0,
    gainPerCost: 0,
    label: c.label,
    halfWidthNow: view.halfWidth,
    target: targetOf(view),
  }
}

/**
 * The sizes that let a bend show, when the range does not hold one yet, in the order to try them (after a size that
 * makes enough files, where the model says a build per file is missing from its projection): the reach (capped
 * at what the input holds) while the largest run falls well short of it, and a third size in the middle of a two-size
 * range (cheaper, and kinder to a CI already on target, whose degrees of freedom a far size of two runs holds down);
 * empty when the range already serves.
 * @param known records measured by any configuration: one near the reach serves as well (and the configurations are
 * then compared as measured there).
 */
export function bendCheckSizes(
  view: DesignView,
  o: { held: number; production: number; maxRecords: number; known?: readonly number[] },
): DesignChoice[] {
  const c = view.figures
  const [first, largest] = [c.sizes[0]!, c.sizes.at(-1)!]
  const reach = reachRecords(c)
  const near = reach === null ? undefined : o.known?.find((r) => r >= 0.8 * reach && r <= 1.25 * reach)
  const far = reach === null ? null : Math.min(near ?? reach, o.maxRecords)
  const short = largest.medianWallMs < REACH_TOLERANCE * REACH_RUN_TIME_RATIO * first.medianWallMs
  const middle = roundRecords(Math.sqrt(first.records * largest.records))
  // First a size that makes enough files, where a model built per file is missing (capacity/per-file.ts): until one
  // is measured the projection holds one build, and no CI around it means anything.
  const files = c.support.filesRecords == null ? null : Math.min(c.support.filesRecords, o.maxRecords)
  const sizes = [
    ...(files !== null && files > largest.records ? [{ kind: 'files' as const, records: files }] : []),
    ...(far !== null && short && far > 1.25 * largest.records ? [{ kind: 'reach' as const, records: far }] : []),
    ...(c.sizes.length < 3 && middle > first.records && middle < largest.records
      ? [{ kind: 'third size' as const, records: middle }]
      : []),
  ]
  return sizes.map(({ kind, records }) =>
    choice(
      view,
      kind,
      { records, sequences: (records * largest.sequences) / largest.records, runs: BEND_SIZE_RUNS },
      o,
    ),
  )
}

/**
 * The bend the lack-of-fit test weighs most, as a contrast: the interior size nearest the range's geometric middle
 * against the chord between the two ends (weights 1, -(x3 - x2)/(x3 - x1), -(x2 - x1)/(x3 - x1)). One more run at
 * size j shrinks its variance by w_j² v_j (1/n_j - 1/(n_j + 1)); per GPU-minute, that says where a run tells a bend
 * from noise best.
 */
function bendContrast(c: ConfigCapacity): { size: ConfigCapacity['sizes'][number]; weight: number }[] {
  const [first, last] = [c.sizes[0]!, c.sizes.at(-1)!]
  const middle = Math.sqrt(first.sequences * last.sequences)
  const interior = c.sizes
    .slice(1, -1)
    .sort((a, b) => Math.abs(Math.log(a.sequences / middle)) - Math.abs(Math.log(b.sequences / middle)))[0]!
  const span = last.sequences - first.sequences
  return [
    { size: first, weight: (last.sequences - interior.sequences) / span },
    { size: interior, weight: 1 },
    { size: last, weight: (interior.sequences - first.sequences) / span },
  ]
}

/** Whether a size of the bend's contrast has too few runs for the lack-of-fit test to be taken at its word. */
const fewRuns = (c: ConfigCapacity) => bendContrast(c).some((t) => t.size.runs < MIN_BEND_CHECK_RUNS)

/**
 * Whether a configuration's runs say its wall time is not a line, and that with runs enough to be believed (every
 * size of the bend's contrast at MIN_BEND_CHECK_RUNS): the design then gives it no more runs. A p below LINE_FIT_P
 * on fewer is confirmed first (bendCheck): on a reference-like target that is a line, a far size of two runs read
 * p < 0.01 once in 20 seeds.
 */
export const bendConfirmed = (c: ConfigCapacity) => notALine(c) && !fewRuns(c)

/**
 * A run where it best tells a bend from noise, when the lack-of-fit test is not settled: it says "not a line" on few
 * runs (to confirm, before more runs narrow a CI around either answer), it is in doubt (p between LINE_FIT_P and
 * LINE_FIT_UNSURE_P), or it could hardly have seen a bend (a size of the contrast with fewer than MIN_BEND_CHECK_RUNS
 * runs). Of the contrast's three sizes (bendContrast), the one whose run shrinks its variance most per GPU-minute,
 * while it has fewer than MAX_BEND_CHECK_RUNS (refining where the uncertainty is, after Hoefler and Belli). The CI
 * rule puts runs at the ends; a bend shows against the middle.
 * @param confirmOnly only the first case (a "not a line" on few runs), which comes before the CI rule.
 */
export function bendCheck(
  view: DesignView,
  o: { held: number; production: number; confirmOnly?: boolean },
): DesignChoice | null {
  const c = view.figures
  const p = c.support.lineFit?.pValue ?? 1
  if (c.sizes.length < 3) return null
  const few = fewRuns(c)
  const unsettled = p < LINE_FIT_P ? few : !o.confirmOnly && (few || p < LINE_FIT_UNSURE_P)
  if (!unsettled) return null
  const variance = runVariance(c)
  const best = bendContrast(c)
    .filter((t) => t.size.runs < MAX_BEND_CHECK_RUNS)
    .map((t) => ({
      ...t,
      perMinute:
        (t.weight ** 2 * variance(t.size.sequences) * (1 / t.size.runs - 1 / (t.size.runs + 1))) / t.size.medianWallMs,
    }))
    .sort((a, b) => b.perMinute - a.perMinute)[0]
  if (!best) return null
  const { records, sequences } = best.size
  return choice(view, 'bend check', { records, sequences, runs: 1 }, o)
}
