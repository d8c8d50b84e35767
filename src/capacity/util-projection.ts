/**
 * A GPU stage's utilization projected to a size, and the check of it against the GPU-busy time's own line.
 *
 * From the steady state: after the GPU's first work a stage keeps it busy at its steady utilization, so its GPU-busy
 * time at size N is steady x (stage(N) - start-up) and its utilization steady x (1 - start-up / stage(N)). That tends to
 * the steady state it is built from as the input grows, and stays inside 0-100% without clipping. Its CI is the
 * interval product of the parts' CIs (steady utilization over the largest size's runs, start-up likewise, the stage time
 * from the size model's draws): wider than a joint draw would give, never narrower.
 *
 * The GPU-busy series (stage time x mean utilization over the whole window, fitted as its own line) says the same thing
 * another way. The two are separate fits: where their CIs do not meet, the report says they disagree instead of
 * clipping one of them to 100% (which hid, on the reference pipeline's ESM-2, a busy line reading 100% [100, 100] at
 * 6 M beside a steady state of 96.8% [95.8, 97.3]).
 */

import type { EstimateStat } from '../engine/stage-metrics.ts'
import type { SizeEstimate } from '../measure/index.ts'

const fmt = (e: SizeEstimate) =>
  `${e.estimate.toFixed(1)}%${e.ci ? ` [${e.ci.low.toFixed(1)}, ${e.ci.high.toFixed(1)}]` : ''}`

/** steady x (1 - start-up / stage), in %, with the interval-product CI; null without a steady state or start-up. */
export function utilFromSteady(
  steadyPct: EstimateStat | null,
  startupMs: EstimateStat | null,
  stageMs: SizeEstimate,
): SizeEstimate | null {
  if (!steadyPct || !startupMs || !(stageMs.estimate > 0)) return null
  const share = (startup: number, stage: number) => (stage > 0 ? Math.min(1, Math.max(0, 1 - startup / stage)) : 0)
  const estimate = steadyPct.median * share(startupMs.median, stageMs.estimate)
  if (!steadyPct.ci || !stageMs.ci) return { estimate, ci: null }
  const startupLow = startupMs.ci?.low ?? startupMs.median
  const startupHigh = startupMs.ci?.high ?? startupMs.median
  return {
    estimate,
    ci: {
      low: steadyPct.ci.low * share(startupHigh, stageMs.ci.low),
      high: steadyPct.ci.high * share(startupLow, stageMs.ci.high),
      level: steadyPct.ci.level,
    },
  }
}

/** Null when the steady-state projection and the busy-time line agree (their CIs meet), else a sentence saying not. */
export function utilDisagreement(fromSteady: SizeEstimate, busyModel: SizeEstimate): string | null {
  const a = fromSteady.ci ?? { low: fromSteady.estimate, high: fromSteady.estimate }
  const b = busyModel.ci ?? { low: busyModel.estimate, high: busyModel.estimate }
  if (a.low <= b.high && b.low <= a.high) return null
  return `the GPU-busy line reads ${fmt(busyModel)} where the steady state gives ${fmt(fromSteady)}: the busy time and the stage times disagree at this size`
}

/** Without a steady state, the busy line alone: said when it (or its CI) leaves 0-100%, which no GPU can. */
export function outOfRange(busyModel: SizeEstimate): string | null {
  const inRange = (x: number) => x >= 0 && x <= 100
  const ends = busyModel.ci ? [busyModel.ci.low, busyModel.ci.high] : []
  if ([busyModel.estimate, ...ends].every(inRange)) return null
  return `the GPU-busy line reads ${fmt(busyModel)}, outside 0-100%: the busy time and the stage times disagree at this size`
}
