/**
 * The capacity design under the `decided` stop rule (config/capacity-targets.ts): which runs next give the best chance
 * of deciding an undecided verdict per GPU-minute, and, once it stops, what each verdict still undecided would need.
 *
 * Each candidate (1-4 more runs of one configuration at a measured size, or 2-4 at a larger one) is scored by the
 * expected number of verdicts it decides, per GPU-minute: for each undecided verdict read from that configuration, the
 * chance that its interval, narrowed as the size model expects (capacity/design.ts halfWidthAfter: the line's
 * estimator variance, builds per file apart), clears its threshold or fits the zone around it
 * (src/measure/decision.ts chanceOfDeciding). How a configuration's narrowing carries into a verdict:
 * - its wall time at 45 K and 6 M: as the model says at that size;
 * - k GPUs against 1: the ratio's relative variance is the sum of the two wall times' (independent runs), so the
 *   candidate's configuration's share of it shrinks and the other's stays;
 * - a GPU stage's utilization at 6 M: in proportion to the configuration's 6 M wall-time interval (both narrow as
 *   runs at the largest sizes add up; an approximation that only ranks candidates).
 * Before that, the runs a PASS needs (capacity/decisions.ts passPreconditions): a size where each worker gets the
 * pipeline's batching threshold, a third size for the lack-of-fit test, a size that shows builds per file; only while
 * some undecided verdict's estimate is on the passing side (a FAIL needs none of them).
 */
import { type CapacityTargets, onBatchingPath } from '../config/capacity-targets.ts'
import { chanceOfDeciding, decideInterval, type SizeEstimate } from '../measure/index.ts'
import { BEND_SIZE_RUNS, bendCheckSizes } from './bend.ts'
import { type Decision, passPreconditions } from './decisions.ts'
import {
  type DesignKind,
  type DesignStep,
  type DesignView,
  expectedWallMs,
  halfWidthAfter,
  largerSizes,
  NEW_SIZE_RUNS,
  reachRecords,
  roundRecords,
} from './design.ts'
import type { ConfigCapacity } from './model.ts'

/** Runs at one measured size one step may add. */
export const REPEAT_RUNS = [1, 2, 3, 4, 6, 8] as const
/** The expected number of verdicts a step must decide to be taken (below it the design stops as undecidable). */
export const MIN_EXPECTED_DECIDED = 0.05

export interface DecideContext {
  /** GPUs the host holds for the measurement (each run's wall time counts that many times). */
  held: number
  /** The most records the input gives; whether the design can make a size it has not measured. */
  maxRecords: number
  canResize: boolean
  /** GPU-minutes left, counted as slow as the slowest run seen (capacity/topup.ts overrunFactor). */
  room: number
  /**
   * Looks left after the next step's. The looks are few (DECISION.maxLooks) and each costs its share of alpha, so a
   * step spends at least the room's share per look left where it can: a run at a time would spend the looks on
   * steps too small to decide anything (on the 2-GPU twin, 1-run repeats at 5 GPU-minutes each, then no look left).
   */
  looksLeft: number
  /** The z of the look's interval level, and the zone's margin. */
  z: number
  margin: number
  batching: CapacityTargets['batching']
}

/** Runs of one configuration at one size: what a step measures. */
export interface DecideCandidate {
  config: ConfigCapacity
  kind: DesignKind
  records: number
  sequences: number
  runs: number
  gpuMinutes: number
}

/** A step the design takes, with its candidate and what it expects. */
export interface DecideChoice {
  candidate: DecideCandidate
  /** Verdicts it is expected to decide, and per GPU-minute. */
  expected: number
  perGpuMinute: number
  why: string
}

const relativeHalfWidth = (e: SizeEstimate | undefined) =>
  e?.ci && e.estimate > 0 ? (e.ci.high - e.ci.low) / 2 / e.estimate : Number.POSITIVE_INFINITY

const wallAt = (c: ConfigCapacity, sequences: number) => c.at.find((a) => a.sequences === sequences)?.wallMs

/** The relative half-width of `c`'s wall time at `sequences` now and after the candidate's runs. */
function wallNarrowing(c: ConfigCapacity, sequences: number, k: DecideCandidate): { now: number; after: number } {
  const view: DesignView = { figures: c, halfWidth: relativeHalfWidth(wallAt(c, sequences)) }
  const now = view.halfWidth
  if (!Number.isFinite(now)) return { now, after: now }
  return { now, after: Math.min(now, halfWidthAfter(view, sequences, k.sequences, k.runs)) }
}

/** A decision's relative half-width now (symmetric about its estimate: enough to rank). */
const decisionHalfWidth = (d: Decision) =>
  d.ci && d.estimate !== null && d.estimate !== 0
    ? (d.ci.high - d.ci.low) / 2 / Math.abs(d.estimate)
    : Number.POSITIVE_INFINITY

/**
 * The decision's relative half-width once `k`'s runs are in; null where they do not bear on it. A speedup's relative
 * variance is about the sum of its two wall times' (independent runs): the candidate's share narrows, the other's
 * (`configs`' other side of the comparison) stays, and the decision's own interval (skewed, as a ratio's is) scales by
 * the root of that sum's change.
 */
export function halfWidthAfterRuns(
  d: Decision,
  k: DecideCandidate,
  configs: readonly ConfigCapacity[] = [],
): number | null {
  if (!d.from.includes(k.config.gpuCount)) return null
  const rel = decisionHalfWidth(d)
  if (!Number.isFinite(rel)) return null
  const wall = wallNarrowing(k.config, d.sequences, k)
  if (!Number.isFinite(wall.now) || wall.now <= 0) return null
  if (d.kind !== 'speedup') return Math.min(rel, rel * (wall.after / wall.now))
  const other = configs.find((c) => d.from.includes(c.gpuCount) && c.gpuCount !== k.config.gpuCount)
  const h = other ? relativeHalfWidth(wallAt(other, d.sequences)) : 0
  if (!Number.isFinite(h)) return rel
  return Math.min(rel, rel * Math.sqrt((h ** 2 + wall.after ** 2) / (h ** 2 + wall.now ** 2)))
}

/** The chance that `k`'s runs decide `d`. */
export function chanceFor(
  d: Decision,
  k: DecideCandidate,
  ctx: Pick<DecideContext, 'z' | 'margin'>,
  configs: readonly ConfigCapacity[] = [],
): number {
  const after = halfWidthAfterRuns(d, k, configs)
  if (after === null || d.estimate === null) return 0
  const scale = Math.abs(d.estimate)
  return chanceOfDeciding({
    estimate: d.estimate,
    halfWidthNow: decisionHalfWidth(d) * scale,
    halfWidthAfter: after * scale,
    threshold: d.threshold,
    margin: ctx.margin,
    z: ctx.z,
  })
}

/** Where a decision's estimate (or, undecided, its interval) would land were nothing else missing. */
export const passingSide = (d: Decision) => {
  if (d.estimate === null) return false
  const point = { low: d.estimate, high: d.estimate }
  return (
    decideInterval(d.ci ?? point, d.threshold, d.direction, 0) === 'pass' ||
    decideInterval(point, d.threshold, d.direction, 0) === 'pass'
  )
}

/** The candidates of one configuration: repeats at each measured size, and larger sizes where they can be made. */
export function decideCandidates(c: ConfigCapacity, ctx: DecideContext): DecideCandidate[] {
  const largest = c.sizes.at(-1)!
  const perRecord = largest.sequences / largest.records
  const minutes = (runs: number, wallMs: number) => (runs * wallMs * ctx.held) / 60_000
  const repeats = c.sizes.flatMap((s) =>
    REPEAT_RUNS.map((runs) => ({
      config: c,
      kind: 'repeat' as DesignKind,
      records: s.records,
      sequences: s.sequences,
      runs,
      gpuMinutes: minutes(runs, s.medianWallMs),
    })),
  )
  const larger = ctx.canResize
    ? largerSizes(largest.records, ctx.maxRecords, reachRecords(c)).flatMap((records) =>
        NEW_SIZE_RUNS.map((runs) => ({
          config: c,
          kind: 'new size' as DesignKind,
          records,
          sequences: records * perRecord,
          runs,
          gpuMinutes: minutes(runs, expectedWallMs(c, records * perRecord)),
        })),
      )
    : []
  return [...repeats, ...larger]
}

/**
 * The size where each worker of the batching stage gets the pipeline's threshold, 10% over (worker shares differ
 * by a sequence or two and the subsets' work per record by a little), or null where none is missing or the input
 * cannot give it.
 */
function batchingRecords(c: ConfigCapacity, ctx: DecideContext): number | null {
  const b = ctx.batching
  if (!b || !onBatchingPath(b, c.gpuCount, c.architecture)) return null
  const items = c.workerItems?.[b.stage]
  const largest = c.sizes.at(-1)!
  if (items === undefined || items >= b.itemsPerWorker || !(items > 0)) return null
  const records = roundRecords(Math.ceil((largest.records * b.itemsPerWorker * 1.1) / items))
  return records <= ctx.maxRecords ? records : null
}

/** The runs a configuration's PASS still needs, cheapest first (empty: none, or none the input can give). */
export function preconditionSteps(c: ConfigCapacity, ctx: DecideContext): DecideCandidate[] {
  if (passPreconditions(c, ctx.batching).length === 0 || !ctx.canResize) return []
  const largest = c.sizes.at(-1)!
  const perRecord = largest.sequences / largest.records
  const sized = (kind: DesignKind, records: number): DecideCandidate => ({
    config: c,
    kind,
    records,
    sequences: records * perRecord,
    runs: BEND_SIZE_RUNS,
    gpuMinutes: (BEND_SIZE_RUNS * expectedWallMs(c, records * perRecord) * ctx.held) / 60_000,
  })
  const batching = batchingRecords(c, ctx)
  const view: DesignView = { figures: c, halfWidth: Number.POSITIVE_INFINITY }
  const bend = bendCheckSizes(view, { held: ctx.held, production: largest.sequences, maxRecords: ctx.maxRecords })
  return [
    ...(batching === null ? [] : [sized('batching', batching)]),
    ...bend.map((b) => sized(b.kind, b.records)),
  ].sort((a, b) => a.gpuMinutes - b.gpuMinutes)
}

export const what = (k: DecideCandidate) =>
  `${k.runs} run(s) of ${k.config.label} at ${k.records.toLocaleString('en-US')} records (${k.gpuMinutes.toFixed(1)} GPU-min)`

/**
 * The next step, or null when no affordable one has any chance of deciding anything (`why` then says so).
 * @param decisions where each question stands now.
 */
export function chooseToDecide(
  configs: readonly ConfigCapacity[],
  decisions: readonly Decision[],
  ctx: DecideContext,
): DecideChoice | { stop: 'budget' | 'undecidable'; why: string } {
  const open = decisions.filter((d) => d.state === 'undecided')
  // First what a PASS needs, for configurations with an undecided verdict headed that way.
  const headedToPass = open.filter(passingSide)
  const needing = configs.filter((c) => headedToPass.some((d) => d.from.includes(c.gpuCount)))
  const pre = needing.flatMap((c) => preconditionSteps(c, ctx)).filter((k) => k.gpuMinutes <= ctx.room)
  if (pre.length > 0) {
    const k = pre.sort((a, b) => a.gpuMinutes - b.gpuMinutes)[0]!
    const missing = passPreconditions(k.config, ctx.batching).join('; ')
    return { candidate: k, expected: 0, perGpuMinute: 0, why: `${what(k)}: a PASS needs ${missing}` }
  }
  // Verdicts whose interval already passes wait on what the input or the budget cannot give: no run ranks on them.
  const scored = open.filter(
    (d) => !(d.ci && decideInterval(d.ci, d.threshold, d.direction, ctx.margin) !== 'undecided'),
  )
  const ranked = configs
    .flatMap((c) => decideCandidates(c, ctx))
    .map((k) => {
      const expected = scored.reduce((a, d) => a + chanceFor(d, k, ctx, configs), 0)
      return { candidate: k, expected, perGpuMinute: expected / Math.max(k.gpuMinutes, 1e-9) }
    })
    // A step less likely than this to decide anything is not worth its GPU-minutes: stop and say what would.
    .filter((s) => s.expected >= MIN_EXPECTED_DECIDED)
    .sort((a, b) => b.perGpuMinute - a.perGpuMinute)
  const within = ranked.filter((s) => s.candidate.gpuMinutes <= ctx.room)
  // The room's share per look left, or the largest step there is where none spends that much.
  const share = Math.min(
    ctx.room / Math.max(1, ctx.looksLeft + 1),
    Math.max(0, ...within.map((s) => s.candidate.gpuMinutes)),
  )
  const affordable = within.filter((s) => s.candidate.gpuMinutes >= share)
  if (affordable.length === 0)
    return ranked.length > 0
      ? {
          stop: 'budget',
          why: `the best next step, ${what(ranked[0]!.candidate)}, exceeds the ${ctx.room.toFixed(1)} GPU-minutes left`,
        }
      : { stop: 'undecidable', why: 'no run the design can make is expected to decide any open verdict' }
  const [best, next] = affordable
  const runnerUp = next ? `; next best ${what(next.candidate)}, ${next.perGpuMinute.toFixed(3)} a GPU-minute` : ''
  return {
    ...best!,
    why: `${what(best!.candidate)}: expected to decide ${best!.expected.toFixed(2)} open verdict(s), ${best!.perGpuMinute.toFixed(3)} a GPU-minute${runnerUp}`,
  }
}

/** A step as the record keeps it (capacity/design.ts DesignStep), its gain the verdicts expected per GPU-minute. */
export function decideStep(choice: DecideChoice, production: number): DesignStep {
  const k = choice.candidate
  const wall = wallNarrowing(k.config, production, k)
  return {
    label: k.config.label,
    kind: k.kind,
    records: k.records,
    runs: k.runs,
    halfWidthBefore: wall.now,
    expectedHalfWidth: wall.after,
    // No width target under the decided rule.
    target: 0,
    gpuMinutes: k.gpuMinutes,
    gainPerGpuMinute: choice.perGpuMinute,
    runnerUp: null,
    why: choice.why,
  }
}
