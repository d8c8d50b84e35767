/**
 * The capacity design's CI rule (src/measure/size-design.ts scores, this reads a fitted configuration into it): for
 * each configuration whose production-size CI is wider than its target, another run at a measured size (mostly the
 * ends of the range), or two to four at a larger size (2x or 4x the largest, or the reach, up to what the input
 * holds), scored by the expected CI reduction per GPU-minute. Where the design looks for a bend: capacity/bend.ts.
 *
 * The run-to-run noise is taken as proportional to run time: a host slowdown scales a whole run (a host-bound stage
 * ran 1.6x slower for one of three 10,000-record runs on an H100), and that model is also the conservative one for
 * sizes (constant noise would favour still larger ones: size-design.ts). Its level cancels: only its shape counts.
 */

import { REFERENCE_TARGETS } from '../config/capacity-targets.ts'
import { type CandidateScore, type DesignSize, expectedHalfWidth, scoreCandidates, valueAt } from '../measure/index.ts'
import type { ConfigCapacity } from './model.ts'
import { LINE_FIT_P } from './support.ts'

/**
 * The 6 M wall-time CI half-width a planner can decide on, for the reference pipeline: +-3% on 1 GPU, +-5% on more
 * (issue 24); a design view may carry another (config/capacity-targets.ts).
 */
export const CAPACITY_CI_TARGET = REFERENCE_TARGETS.ciHalfWidth
/**
 * Runs at a size the CI rule adds: at least two, the fewest that give a size its own spread (size-model.ts), and up to
 * four in one step. Why more than two: the model's t draws take their degrees of freedom from the sizes' spreads
 * (Welch and Satterthwaite, no fewer than the fewest runs at a size - 1), so a new size of two runs, whose spread in
 * seconds is the largest, leaves about one degree of freedom and a CI wider than before; its worth shows from three or
 * four runs on, which a one-run-ahead score would never reach.
 */
export const NEW_SIZE_RUNS = [2, 3, 4] as const
/** Larger sizes the design weighs, as multiples of the largest measured one (capped at what the input holds). */
export const GROWTH_FACTORS = [2, 4] as const

export type DesignKind = 'repeat' | 'new size' | 'reach' | 'third size' | 'bend check' | 'files' | 'batching'

/** A candidate as the suite runs it: which configuration, how many records. */
export interface DesignChoice extends DesignSize, CandidateScore {
  kind: DesignKind
  label: string
  records: number
  /** GPU-minutes, as the rule weighed it. */
  cost: number
  /** GPU-minutes it is expected to cost (its runs' wall times x the GPUs the host holds). */
  gpuMinutes: number
  /** The configuration's relative 6 M half-width now, and its target. */
  halfWidthNow: number
  target: number
}

/** What the design reads of a fitted configuration. */
export interface DesignView {
  figures: ConfigCapacity
  /** The relative half-width at the production size (Infinity without a CI). */
  halfWidth: number
  /** The half-width it aims at; absent: CAPACITY_CI_TARGET's. */
  target?: number
}

/** The half-width a view aims at. */
export const targetOf = (view: DesignView) => view.target ?? CAPACITY_CI_TARGET(view.figures.gpuCount)

export const expectedWallMs = (c: ConfigCapacity, sequences: number) =>
  valueAt({ fixed: c.wall.fixedMs.estimate, perUnit: c.wall.msPerSequence.estimate }, sequences)

/**
 * How far the measured range should reach: the size whose run takes this many times the smallest run's time. Under
 * noise proportional to run time that is the cost-optimal largest size for a projection (size-design.ts: T2 = 4 T1),
 * and a range that wide is one a bend can show over (the VirNucPro-like curve of the design study, 6.1 ms a sequence
 * from 1,000 to 4,000 records and 7.2 from 4,000 to 20,000, hid in the noise over 1,000-8,000 records).
 */
export const REACH_RUN_TIME_RATIO = 4

/** Records rounded to two significant figures (a size a reader can name), at least 1. */
export const roundRecords = (n: number) => {
  const scale = 10 ** Math.max(0, Math.floor(Math.log10(Math.max(1, n))) - 1)
  return Math.max(1, Math.round(n / scale) * scale)
}

/** The records whose run is expected to take REACH_RUN_TIME_RATIO x the smallest run's time; null without a slope. */
export function reachRecords(c: ConfigCapacity): number | null {
  const [smallest, largest] = [c.sizes[0]!, c.sizes.at(-1)!]
  const perSequence = c.wall.msPerSequence.estimate
  if (!(perSequence > 0)) return null
  const sequences = (REACH_RUN_TIME_RATIO * smallest.medianWallMs - c.wall.fixedMs.estimate) / perSequence
  return roundRecords((sequences * largest.records) / largest.sequences)
}

/**
 * Records of the larger sizes one could add: GROWTH_FACTORS x the largest and the reach (bendCheckSize), capped at
 * `maxRecords`, each once, ascending.
 */
export function largerSizes(largestRecords: number, maxRecords: number, reach: number | null = null): number[] {
  const sizes = [...GROWTH_FACTORS.map((f) => f * largestRecords), ...(reach === null ? [] : [reach])].map((r) =>
    Math.min(Math.round(r), maxRecords),
  )
  return [...new Set(sizes)].filter((r) => r > largestRecords).sort((a, b) => a - b)
}

/**
 * One run's variance at any size, by the noise model: proportional to the expected run time, at the relative spread
 * the runs show pooled over every size (of the parts fitted as lines: start-up held constant carries none into a
 * projection). Pooled, not each size's own: with two or three runs a size's own spread is a guess (on the synthetic
 * target, 0.33 s where the truth was 1.29 s), and a rule that trusted it would keep measuring the size that happened
 * to look noisy; the model's CI still reads each size's own spread, and its width now is what the rule scales.
 */
export function runVariance(c: ConfigCapacity): (sequences: number) => number {
  const spread = c.sizes.filter((s) => s.lineSdMs !== null && s.runs > 1)
  const weight = spread.reduce((a, s) => a + s.runs - 1, 0)
  const cv2 =
    weight > 0 ? spread.reduce((a, s) => a + ((s.runs - 1) * s.lineSdMs! ** 2) / s.medianWallMs ** 2, 0) / weight : 0
  return (sequences) => cv2 * expectedWallMs(c, sequences) ** 2
}

/** The measured design as the rule scores it: each size's runs, each run's variance by the noise model. */
export function measuredDesign(c: ConfigCapacity): DesignSize[] {
  const variance = runVariance(c)
  return c.sizes.map((s) => ({ size: s.sequences, runs: s.runs, runVariance: variance(s.sequences) }))
}

/**
 * The share of the production-size CI's variance that builds per file hold (capacity/builds.ts: a build's cost, one
 * sample a run, times the files production makes), from the parts' shares (capacity/dominant.ts); 0 without builds.
 */
export function buildsShare(c: ConfigCapacity, production: number): number {
  const at = c.at.find((a) => a.sequences === production)
  const pct = (at?.dominant ?? []).filter((d) => d.part.startsWith('builds: ')).reduce((a, d) => a + d.sharePct, 0)
  return Math.min(1, Math.max(0, pct / 100))
}

/**
 * The half-width after `runs` more runs where the line's rule expects `lineAfter`: the builds' share of the variance
 * shrinks as 1/n with the runs, whatever their size (each run is one sample of a build's cost: a cheap run serves as
 * well as a long one), the rest as the line's rule says (which alone would send every run to the ends: on a synthetic
 * VirNucPro v1, 42 GPU-minutes to +-5% where repeats at the two planned sizes took 12).
 */
export function withBuildsShare(now: number, lineAfter: number, share: number, runsNow: number, runs: number): number {
  if (!(share > 0) || !Number.isFinite(now) || !Number.isFinite(lineAfter) || !(now > 0)) return lineAfter
  return now * Math.sqrt((1 - share) * (lineAfter / now) ** 2 + (share * runsNow) / (runsNow + runs))
}

const runsOf = (c: ConfigCapacity) => c.sizes.reduce((a, s) => a + s.runs, 0)

/** The relative half-width at `production` expected once `runs` more runs at `sequences` are in. */
export function halfWidthAfter(view: DesignView, production: number, sequences: number, runs: number): number {
  const current = measuredDesign(view.figures)
  const next = [...current, { size: sequences, runs, runVariance: runVariance(view.figures)(sequences) }]
  const line = expectedHalfWidth({ halfWidth: view.halfWidth, current, next, x0: production })
  return withBuildsShare(view.halfWidth, line, buildsShare(view.figures, production), runsOf(view.figures), runs)
}

/**
 * The design's candidates for one configuration, scored (best first): another run at a measured size (mostly the
 * ends, where the slope is read: size-design.ts), or NEW_SIZE_RUNS at a larger size.
 * @param held GPUs the host holds for the measurement (each run's wall time counts that many times).
 * @param maxRecords the most records the input can give (the user's sample; Infinity for a generated preset).
 */
export function designCandidates(
  view: DesignView,
  o: { production: number; held: number; maxRecords: number },
): DesignChoice[] {
  const c = view.figures
  const largest = c.sizes.at(-1)!
  const perRecord = largest.sequences / largest.records
  const minutes = (runs: number, wallMs: number) => (runs * wallMs * o.held) / 60_000
  const variance = runVariance(c)
  const design = measuredDesign(c)
  const candidates = [
    // Another run at any measured size: mostly the ends, where the slope is read; a size in between too, where its few
    // runs hold the model's degrees of freedom down (they count alike, whatever the size's leverage).
    ...c.sizes.map((s) => ({
      kind: 'repeat' as DesignKind,
      size: s.sequences,
      runs: 1,
      records: s.records,
      runVariance: variance(s.sequences),
      cost: minutes(1, s.medianWallMs),
    })),
    ...largerSizes(largest.records, o.maxRecords, reachRecords(c)).flatMap((records) =>
      NEW_SIZE_RUNS.map((runs) => ({
        kind: 'new size' as const,
        size: records * perRecord,
        runs,
        records,
        runVariance: variance(records * perRecord),
        cost: minutes(runs, expectedWallMs(c, records * perRecord)),
      })),
    ),
  ]
  const target = targetOf(view)
  const share = buildsShare(c, o.production)
  const scored = scoreCandidates({
    halfWidth: view.halfWidth,
    target,
    design,
    x0: o.production,
    candidates,
    adjust: (line, s) => withBuildsShare(view.halfWidth, line, share, runsOf(c), s.runs),
  })
  return scored.map((s) => ({ ...s, label: c.label, gpuMinutes: s.cost, halfWidthNow: view.halfWidth, target }))
}

/** One decision of the design: what it measured, and why that. */
export interface DesignStep {
  label: string
  kind: DesignKind
  records: number
  runs: number
  /** The configuration's 6 M half-width before (relative) and as expected after; its target. */
  halfWidthBefore: number
  expectedHalfWidth: number
  target: number
  /** Expected GPU-minutes, and the expected gain (share of the way to the target) per GPU-minute. */
  gpuMinutes: number
  gainPerGpuMinute: number
  /** The runner-up, when there was one: what it would have given per GPU-minute. */
  runnerUp: { label: string; kind: DesignKind; records: number; gainPerGpuMinute: number } | null
  /** The same, in words. */
  why: string
}

const pct = (x: number) => (Number.isFinite(x) ? `+-${(x * 100).toFixed(1)}%` : 'no CI')
const what = (c: DesignChoice) => `${c.runs} run(s) of ${c.label} at ${c.records.toLocaleString('en-US')} records`

/** Why the design chose `best`, for the record and the report. */
function whyOf(best: DesignChoice, runnerUp: DesignChoice | undefined): string {
  const cost = `${best.gpuMinutes.toFixed(1)} GPU-min`
  if (best.kind === 'reach' || best.kind === 'third size')
    return `${what(best)} (${cost}): a range a bend in the cost can show over, before more runs narrow a CI around a line`
  if (best.kind === 'files')
    return `${what(best)} (${cost}): a size that makes enough files for a model built once per file to show across sizes (every measured size made the same number, so the projection holds one build where production pays many)`
  if (best.kind === 'bend check')
    return `${what(best)} (${cost}): where a bend tells from noise best, to settle the lack-of-fit test (a "not a line" on few runs, a p in doubt, or too few runs to have seen a bend)`
  const next = runnerUp ? `; next best ${what(runnerUp)}, ${runnerUp.gainPerCost.toFixed(3)} a GPU-minute` : ''
  return `${what(best)} (${cost}): 6 M CI ${pct(best.halfWidthNow)} expected to ${pct(best.halfWidth)} (target ${pct(best.target)}), ${best.gainPerCost.toFixed(3)} of the way to the target a GPU-minute${next}`
}

export const toStep = (best: DesignChoice, runnerUp: DesignChoice | undefined): DesignStep => ({
  label: best.label,
  kind: best.kind,
  records: best.records,
  runs: best.runs,
  halfWidthBefore: best.halfWidthNow,
  expectedHalfWidth: best.halfWidth,
  target: best.target,
  gpuMinutes: best.gpuMinutes,
  gainPerGpuMinute: best.gainPerCost,
  runnerUp: runnerUp
    ? { label: runnerUp.label, kind: runnerUp.kind, records: runnerUp.records, gainPerGpuMinute: runnerUp.gainPerCost }
    : null,
  why: whyOf(best, runnerUp),
})

/** Whether a configuration's runs show that its wall time is not a line over the measured sizes. */
export const notALine = (c: ConfigCapacity) => (c.support.lineFit?.pValue ?? 1) < LINE_FIT_P
