/**
 * The capacity design's `width` rule (issues 24 and 31): the next step, in this order while the budget allows:
 * 1. a range a bend in the cost can show over (capacity/bend.ts): the size whose run takes 4x the smallest run's time
 *    (also the cost-optimal largest size: src/measure/size-design.ts), or a third size in the middle; not where it
 *    would undo a CI already on target, and only while the budget holds its runs twice over;
 * 2. a "not a line" from the lack-of-fit test on few runs, confirmed where the bend shows;
 * 3. while some configuration's production-size CI is wider than its target (CAPACITY_CI_TARGET), the run expected
 *    to narrow it most per GPU-minute (capacity/design.ts: another run at a measured size, or 2-4 at a larger one);
 * 4. once every CI is on target, runs that settle a lack-of-fit test still in doubt.
 * A configuration whose runs say its wall time is not a line gets no more runs (they would narrow a CI around the
 * wrong line), and its model says so in its support: every projection inconclusive.
 */
import type { CapacityStats } from './analyze.ts'
import { bendCheck, bendCheckSizes, bendConfirmed } from './bend.ts'
import { CAPACITY_CI_TARGET, type DesignChoice, type DesignView, designCandidates } from './design.ts'

/**
 * A size added so a bend can show is measured only while the budget holds this many times its cost: a new size of a
 * few runs first widens the CI (its spread, in seconds the largest, holds the model's degrees of freedom down), and the
 * rest is what brings it back. On a synthetic reference-like target (9 s start-up, 3.3 ms a sequence, 2.5% noise, 7
 * GPU-minutes), without this rule a CI on target at +-2.1% ended the budget at +-3.0%.
 */
export const BEND_ROOM_FACTOR = 2

/** How far each configuration's production projection is from its target: half-width over target (> 1: too wide). */
export function ciExcess(
  stats: CapacityStats,
  production: number,
  ciTarget: (gpuCount: number) => number = CAPACITY_CI_TARGET,
): { label: string; gpuCount: number; halfWidth: number; target: number; excess: number }[] {
  return stats.configurations.map((c) => {
    const at = c.at.find((a) => a.sequences === production)?.wallMs
    const half = at?.ci ? (at.ci.high - at.ci.low) / 2 / at.estimate : Number.POSITIVE_INFINITY
    const target = ciTarget(c.gpuCount)
    return { label: c.label, gpuCount: c.gpuCount, halfWidth: half, target, excess: half / target }
  })
}

/** Why the width rule takes no further step. */
export type WidthStop = 'targets-reached' | 'budget' | 'no-ci' | 'not-a-line'
type Choice = { step: DesignChoice; runnerUp?: DesignChoice } | { stop: WidthStop }

/** The next run by the rule, or why there is none. */
export function chooseByWidth(
  stats: CapacityStats,
  production: number,
  room: number,
  o: {
    held: number
    maxRecords: number
    canResize: boolean
    known: readonly number[]
    ciTarget?: (gpuCount: number) => number
  },
): Choice {
  const excess = ciExcess(stats, production, o.ciTarget)
  const views: (DesignView & { excess: number })[] = stats.configurations.map((figures, i) => ({
    figures,
    halfWidth: excess[i]!.halfWidth,
    target: excess[i]!.target,
    excess: excess[i]!.excess,
  }))
  const lines = views.filter((v) => !bendConfirmed(v.figures))
  const cheapest = (choices: (DesignChoice | null)[]) =>
    choices
      .filter((c): c is DesignChoice => c !== null && c.gpuMinutes <= room)
      .sort((a, b) => a.gpuMinutes - b.gpuMinutes)[0]
  // First the range a bend can show over (also the cost-optimal largest size: capacity/design.ts REACH_RUN_TIME_RATIO):
  // runs spent narrowing a CI around a line that does not hold are lost.
  const at = { ...o, production }
  // Per configuration, the first of its bend sizes the budget holds twice over; a CI on target is not traded for the
  // check (a size whose runs are expected to widen it past its target is passed over for the next).
  const bendOf = (v: DesignView & { excess: number }) =>
    bendCheckSizes(v, at).find(
      // A size for the per-file builds is taken whatever the CI says: a CI around a projection that misses them is
      // no CI to keep.
      (c) => BEND_ROOM_FACTOR * c.gpuMinutes <= room && (v.excess > 1 || c.halfWidth <= c.target || c.kind === 'files'),
    ) ?? null
  const bend = cheapest(o.canResize ? lines.map(bendOf) : [])
  if (bend) return { step: bend }
  const confirm = cheapest(lines.map((v) => bendCheck(v, { ...at, confirmOnly: true })))
  if (confirm) return { step: confirm }
  const wide = lines.filter((v) => v.excess > 1)
  if (wide.length > 0) {
    if (wide.every((v) => !Number.isFinite(v.halfWidth))) return { stop: 'no-ci' }
    const ranked = wide
      .flatMap((v) => designCandidates(v, { production, ...o }))
      .filter((c) => c.gain > 0)
      .sort((a, b) => b.gainPerCost - a.gainPerCost)
    const affordable = ranked.filter((c) => c.gpuMinutes <= room)
    if (affordable.length === 0) return { stop: ranked.length > 0 ? 'budget' : 'no-ci' }
    return { step: affordable[0]!, runnerUp: affordable[1] }
  }
  const unsure = cheapest(lines.map((v) => bendCheck(v, at)))
  if (unsure) return { step: unsure }
  return { stop: lines.length < views.length ? 'not-a-line' : 'targets-reached' }
}
