/**
 * Bad nodes: which hosts of one GPU model sit outside the fleet's spread on one measurement. Each host brings its
 * repeated runs' throughput (higher is better); the fleet is the hosts of that model.
 *
 * The rule, and why each part:
 * - the fleet's centre is the median of the host medians and its spread a robust host-to-host scale (MAD x 1.4826),
 *   so one bad node moves neither (a mean and sd would be dragged towards the node being judged);
 * - that scale is never taken below the run-to-run spread (the median over hosts of their runs' sd): hosts that
 *   happen to agree closely (MAD near 0, or over half of them equal) must not turn ordinary run noise into a flag;
 * - a host is outside when its modified z-score passes Iglewicz and Hoaglin's 3.5 (outliers.ts's cut-off for runs);
 * - and it must matter: the host is off the centre by more than `minRelativeEffect` (the reports pass the regression
 *   gate's threshold, the smallest slowdown this suite calls a regression);
 * - and its own runs must agree: the CI of its median (order statistic) lies wholly on that side of the centre, so one
 *   slow run on a good node is not a bad node. A host with one run has no CI and is never flagged.
 * Fewer than `minHosts` hosts (3) have no spread to be outside of: every host is inconclusive, and says so.
 * A host faster than the fleet by the same rule is flagged too (`faster`): the others may be throttled.
 */

import { MeasureInputError } from './errors.ts'
import { MAD_NORMAL_SCALE, median, medianAbsoluteDeviation, standardDeviation } from './estimators.ts'
import { medianWithCi } from './median-ci.ts'
import { MODIFIED_Z_THRESHOLD } from './outliers.ts'
import { toSorted } from './samples.ts'

export interface HostRuns {
  host: string
  /** One value per run, higher is better (sequences per second). */
  values: readonly number[]
}

export type SpreadVerdict = 'pass' | 'flag' | 'inconclusive'

export interface HostJudgement {
  host: string
  runs: number
  median: number
  ci: { low: number; high: number; level: number } | null
  /** (median - centre) / centre. */
  relative: number
  /** (median - centre) / scale; null when the scale is 0 (every value alike). */
  score: number | null
  verdict: SpreadVerdict
  /** Which side of the fleet a flagged host is on; null otherwise. */
  direction: 'slower' | 'faster' | null
  reason: string
}

export interface FleetSpread {
  hosts: HostJudgement[]
  /** Median of the host medians; NaN when there is no host. */
  centre: number
  /** The scale z-scores divide by: max(host-to-host robust sd, run-to-run sd). */
  scale: number
  scaleFrom: 'hosts' | 'runs'
  minHosts: number
}

export interface FleetSpreadOptions {
  /** Smallest relative distance from the centre that matters, e.g. 0.1. */
  minRelativeEffect: number
  threshold?: number
  minHosts?: number
}

export const FLEET_MIN_HOSTS = 3

const pct = (x: number) => `${(x * 100).toFixed(1)}%`

function judge(
  h: { host: string; sorted: readonly number[]; median: number; ci: HostJudgement['ci'] },
  centre: number,
  scale: number,
  o: Required<FleetSpreadOptions>,
): HostJudgement {
  const relative = (h.median - centre) / centre
  const score = scale > 0 ? (h.median - centre) / scale : h.median === centre ? 0 : null
  const outside = score === null || Math.abs(score) > o.threshold
  const matters = Math.abs(relative) > o.minRelativeEffect
  const side = h.median < centre ? 'slower' : 'faster'
  const agreed = h.ci !== null && (side === 'slower' ? h.ci.high < centre : h.ci.low > centre)
  const shown = `${pct(relative)} from the fleet median, z ${score === null ? 'unbounded (no spread)' : score.toFixed(1)}`
  const base = { host: h.host, runs: h.sorted.length, median: h.median, ci: h.ci, relative, score }
  if (outside && matters && agreed)
    return {
      ...base,
      verdict: 'flag',
      direction: side,
      reason: `${side} than the fleet: ${shown} (limits |z| ${o.threshold}, ${pct(o.minRelativeEffect)}); its runs' CI is wholly ${side === 'slower' ? 'below' : 'above'} the median`,
    }
  if (outside && matters)
    return {
      ...base,
      verdict: 'inconclusive',
      direction: null,
      reason: `${shown}, but ${h.ci ? "its runs' CI reaches the fleet median" : 'one run: no CI of its own'}`,
    }
  return {
    ...base,
    verdict: 'pass',
    direction: null,
    reason: `within the fleet's spread: ${shown} (limits |z| ${o.threshold}, ${pct(o.minRelativeEffect)})`,
  }
}

/**
 * Judges every host against the fleet of `hosts`.
 * @throws MeasureInputError when a host has no value, a value is not finite or not positive, or two hosts share a name.
 */
export function judgeFleetSpread(hosts: readonly HostRuns[], options: FleetSpreadOptions): FleetSpread {
  const o: Required<FleetSpreadOptions> = {
    threshold: MODIFIED_Z_THRESHOLD,
    minHosts: FLEET_MIN_HOSTS,
    ...options,
  }
  if (new Set(hosts.map((h) => h.host)).size !== hosts.length)
    throw new MeasureInputError('fleet hosts', `host names must be unique: ${hosts.map((h) => h.host).join(', ')}`)
  const summaries = hosts.map((h) => {
    const sorted = toSorted(h.values, `host ${h.host} values`)
    if ((sorted[0] as number) <= 0) throw new MeasureInputError(`host ${h.host} values`, 'must all be positive')
    const e = medianWithCi(sorted)
    const ci = e.ci ? { low: e.ci.low, high: e.ci.high, level: e.ci.level } : null
    return { host: h.host, sorted, median: e.median, ci }
  })
  if (summaries.length === 0)
    return { hosts: [], centre: Number.NaN, scale: 0, scaleFrom: 'hosts', minHosts: o.minHosts }
  const medians = toSorted(summaries.map((s) => s.median))
  const centre = median(medians)
  const hostScale = medianAbsoluteDeviation(medians) * MAD_NORMAL_SCALE
  const runSds = summaries.filter((s) => s.sorted.length > 1).map((s) => standardDeviation(toSorted(s.sorted)))
  const runScale = runSds.length > 0 ? median(toSorted(runSds)) : 0
  const scale = Math.max(hostScale, runScale)
  const scaleFrom = runScale > hostScale ? 'runs' : 'hosts'
  if (summaries.length < o.minHosts) {
    const reason = `no verdict: ${summaries.length} host(s) of this GPU model measured it; a fleet spread needs >= ${o.minHosts}`
    return {
      hosts: summaries.map((s) => ({
        host: s.host,
        runs: s.sorted.length,
        median: s.median,
        ci: s.ci,
        relative: (s.median - centre) / centre,
        score: null,
        verdict: 'inconclusive',
        direction: null,
        reason,
      })),
      centre,
      scale,
      scaleFrom,
      minHosts: o.minHosts,
    }
  }
  return { hosts: summaries.map((s) => judge(s, centre, scale, o)), centre, scale, scaleFrom, minHosts: o.minHosts }
}
