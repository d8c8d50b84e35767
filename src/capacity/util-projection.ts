/**
 * A GPU stage's utilization projected to a size, from the size model's GPU-busy line (stage time x mean utilization,
 * fitted across sizes) and stage line, and the checks that say where the figures tell two stories.
 *
 * What it tends to: each sequence the input adds adds d stage ms to the stage and d busy ms of GPU work, so as the
 * input grows the utilization tends to the marginal busy share across sizes, d busy / d stage (the busy line's slope
 * over the stage line's). From the largest measured size L on, the projection is the measured share there carried
 * over to the added time at the marginal share: u(N) = w a + (1 - w) m, with a = busy(L) / stage(L), m the marginal
 * share and w = stage(L) / stage(N). Where a and m are inside 0-100% that is exactly busy(N) / stage(N), the busy
 * line's own reading; it never leaves 0-100% (a convex mix of two shares inside it), it equals the measured share at L
 * and tends to m. Below L it is the same line read back (clamped to 0-100%).
 *
 * How it relates to the steady state (utilization from each GPU's first batch to its work's end, runs.ts): if the
 * GPU ran at the steady share s through every ms after its onset, busy = s x (stage - start-up - drain), and so
 * m = s x (1 - d(start-up + drain) / d stage). The two agree where the time before the first batch and after the last
 * does not grow with the input; m is below s where it does (VirNucPro's v2 ESM-2 workers read their whole share
 * before their first batch, v1 builds its model again for every file), and then the projection follows m, the share
 * that holds at 6 M, while the steady state says what the GPU does once working. m above s would have an added
 * sequence keep the GPU busier than its work ever did: the projection is then held at s (a steady state read from the
 * first busy sample, in records kept before the work onset, holds the wait for the first batch: no bound, and no
 * note beside m: capacity/gpu-work.ts). Where the two CIs do not
 * meet, the report says so in the projection's note (steadyVersusMarginal), with the busy line's own reading where it
 * leaves the projection (utilDisagreement).
 *
 * CIs are interval products of the parts' CIs (a and m from the model's draws, s over the largest size's runs, w from
 * the draws): wider than a joint draw would give, never narrower.
 */

import type { EstimateStat } from '../engine/stage-metrics.ts'
import type { SizeEstimate } from '../measure/index.ts'

const fmt = (e: SizeEstimate) =>
  `${e.estimate.toFixed(1)}%${e.ci ? ` [${e.ci.low.toFixed(1)}, ${e.ci.high.toFixed(1)}]` : ''}`
const fmtStat = (s: EstimateStat) => fmt({ estimate: s.median, ci: s.ci })
const clamp = (x: number, low: number, high: number) => Math.min(high, Math.max(low, x))
const ends = (e: SizeEstimate): [number, number] => (e.ci ? [e.ci.low, e.ci.high] : [e.estimate, e.estimate])

/** The marginal busy share as the projection uses it: inside 0-100%, and no higher than the steady state. */
export function heldMarginal(marginalPct: SizeEstimate, steadyPct: EstimateStat | null): SizeEstimate {
  const cap = (x: number, steady: number | undefined) => clamp(x, 0, Math.min(100, steady ?? 100))
  return {
    estimate: cap(marginalPct.estimate, steadyPct?.median),
    ci: marginalPct.ci && {
      ...marginalPct.ci,
      low: cap(marginalPct.ci.low, steadyPct?.ci?.low ?? steadyPct?.median),
      high: cap(marginalPct.ci.high, steadyPct?.ci?.high ?? steadyPct?.median),
    },
  }
}

/**
 * u = w a + (1 - w) m in %, inside 0-100%: `measuredPct` (a) the busy share at the largest measured size, `marginalPct`
 * (m) the marginal share as heldMarginal gives it, `weight` (w) stage(L) / stage(N). CI from the corners of the three
 * intervals (u is linear in each); null where one part has none.
 */
export function utilTowardMarginal(
  measuredPct: SizeEstimate,
  marginalPct: SizeEstimate,
  weight: SizeEstimate,
): SizeEstimate {
  const mix = (w: number, a: number, m: number) => clamp(w * clamp(a, 0, 100) + (1 - w) * m, 0, 100)
  const estimate = mix(weight.estimate, measuredPct.estimate, marginalPct.estimate)
  if (!measuredPct.ci || !marginalPct.ci || !weight.ci) return { estimate, ci: null }
  const corners = ends(weight).flatMap((w) =>
    ends(measuredPct).flatMap((a) => ends(marginalPct).map((m) => mix(w, a, m))),
  )
  return { estimate, ci: { low: Math.min(...corners), high: Math.max(...corners), level: marginalPct.ci.level } }
}

/** Null when the steady state and the marginal busy share agree (their CIs meet), else a sentence saying how not. */
export function steadyVersusMarginal(steadyPct: EstimateStat, marginalPct: SizeEstimate): string | null {
  const [sLow, sHigh] = steadyPct.ci ? [steadyPct.ci.low, steadyPct.ci.high] : [steadyPct.median, steadyPct.median]
  const [mLow, mHigh] = ends(marginalPct)
  if (mLow <= sHigh && sLow <= mHigh) return null
  return mHigh < sLow
    ? `once at work the GPU is ${fmtStat(steadyPct)} busy, but across sizes each added ms of the stage is ${fmt(marginalPct)} busy: its idle time (before the first batch, between files or after the last) grows with the input, and the projection tends to the latter`
    : `across sizes the GPU-busy time grows ${fmt(marginalPct)} as fast as the stage, above the ${fmtStat(steadyPct)} the GPU runs at once at work: the projection is held at the steady state`
}

/**
 * Null when the projection and the busy line's own reading at its size agree (their CIs meet), else a sentence saying
 * not: they part only where the projection holds a share the line leaves (outside 0-100%, above the steady state).
 */
export function utilDisagreement(projected: SizeEstimate, busyModel: SizeEstimate): string | null {
  const [aLow, aHigh] = ends(projected)
  const [bLow, bHigh] = ends(busyModel)
  if (aLow <= bHigh && bLow <= aHigh) return null
  return `the GPU-busy line reads ${fmt(busyModel)} where the projection (held inside 0-100% and at the steady state) gives ${fmt(projected)}: the busy time and the stage times disagree at this size`
}
