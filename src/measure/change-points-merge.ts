/**
 * The merge step (Otava/Hunter's `merge`): candidates from the windows are judged against their neighbours, not their
 * windows. While any candidate fails, the weakest goes (the largest p-value at or above alpha first, else the smallest
 * level change that cannot reach minRelativeEffect), and only its two neighbours are judged again, since only their
 * segments changed. What remains is a set of changes each of which is significant and large enough given the others.
 *
 * Two scopes, on purpose:
 * - the level change (medians and their CIs) is measured over the whole segments between neighbouring changes: that
 *   is the level a reader sees on a trend chart, and long segments make it precise;
 * - the p-value is the permutation test over at most half a window each side (clipped at the neighbours), the
 *   observed Q at this split against the max over all splits there: distant history says nothing about whether this
 *   commit changed something, and a local test keeps every re-test O(window^2 * permutations).
 */
import {
  cutsWithin,
  type DetectorContext,
  isLargeEnough,
  MIN_SIDE_POINTS,
  profileSegment,
  relativeChangeOf,
  type SegmentLevel,
  segmentLevel,
  segmentPValue,
} from './change-points-segments.ts'

export interface JudgedCandidate {
  index: number
  before: SegmentLevel
  after: SegmentLevel
  relativeChange: number
  pValue: number
  /** Large enough to report (isLargeEnough), and placed where the step is when it ends the history (placedAtEnd). */
  largeEnough: boolean
}

/** p of a split at `index` between the neighbouring changes `low` and `high` (1 when a side is too short to test). */
function localPValue(context: DetectorContext, low: number, index: number, high: number): number {
  const half = Math.floor(context.windowPoints / 2)
  const start = Math.max(low, index - half)
  const end = Math.min(high, index + half)
  const cuts = cutsWithin(context, start, end)
  const at = cuts.indexOf(index - start)
  if (at < 0) return 1
  profileSegment(context, start, end, cuts)
  const observed = context.scratch.profile[at] as number
  return segmentPValue(context, end - start, cuts, observed)
}

/**
 * Whether a change at the end of the history sits where the step is. The last MIN_SIDE_POINTS - 1 points cannot start
 * a change (a side needs MIN_SIDE_POINTS), so a step that landed there shows as a split a point or two early whose
 * after side begins with points of the old level; found on a nightly history, it would name the wrong commit, and
 * the next night's point moves it. Such a split waits until the points after it can place it: the first point after
 * it must sit nearer the after level than the before level.
 */
function placedAtEnd(context: DetectorContext, index: number, high: number, before: SegmentLevel, after: SegmentLevel) {
  if (high < context.values.length || after.n >= 2 * MIN_SIDE_POINTS) return true
  const first = context.values[index] as number
  return Math.abs(first - after.median) <= Math.abs(first - before.median)
}

function judge(context: DetectorContext, low: number, index: number, high: number): JudgedCandidate {
  const before = segmentLevel(context, low, index)
  const after = segmentLevel(context, index, high)
  return {
    index,
    before,
    after,
    relativeChange: relativeChangeOf(before.median, after.median),
    pValue: localPValue(context, low, index, high),
    largeEnough:
      isLargeEnough(before, after, context.minRelativeEffect) && placedAtEnd(context, index, high, before, after),
  }
}

/**
 * Whether `a` is a weaker change than `b`: the larger p, and on equal p (two candidates too close to test give both
 * p = 1) the smaller level change.
 */
function weaker(a: JudgedCandidate, b: JudgedCandidate): boolean {
  if (a.pValue !== b.pValue) return a.pValue > b.pValue
  return Math.abs(a.relativeChange) < Math.abs(b.relativeChange)
}

/** Position of the candidate to drop next, or -1 when every one passes. */
function weakest(judged: readonly JudgedCandidate[], alpha: number): number {
  let notSignificant = -1
  let tooSmall = -1
  for (let i = 0; i < judged.length; i++) {
    const c = judged[i] as JudgedCandidate
    if (c.pValue >= alpha && (notSignificant < 0 || weaker(c, judged[notSignificant] as JudgedCandidate)))
      notSignificant = i
    const magnitude = Math.abs(c.relativeChange)
    if (!c.largeEnough && (tooSmall < 0 || magnitude < Math.abs((judged[tooSmall] as JudgedCandidate).relativeChange)))
      tooSmall = i
  }
  return notSignificant >= 0 ? notSignificant : tooSmall
}

/** Judges `candidates` (ascending indices) against each other and drops the failing ones, weakest first. */
export function mergeCandidates(context: DetectorContext, candidates: readonly number[]): JudgedCandidate[] {
  const n = context.values.length
  const bound = (list: readonly { index: number }[], i: number, fallback: number) => list[i]?.index ?? fallback
  const judged = candidates.map((index, i) => judge(context, candidates[i - 1] ?? 0, index, candidates[i + 1] ?? n))
  for (let drop = weakest(judged, context.alpha); drop >= 0; drop = weakest(judged, context.alpha)) {
    judged.splice(drop, 1)
    // The neighbours now at drop - 1 and drop saw their segments grow; nothing else changed.
    for (const i of [drop - 1, drop]) {
      const c = judged[i]
      if (c) judged[i] = judge(context, bound(judged, i - 1, 0), c.index, bound(judged, i + 1, n))
    }
  }
  return judged
}
