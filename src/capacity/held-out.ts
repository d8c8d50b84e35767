/**
 * A refit checked against runs it was not fitted on (`capacity --sizes` leaving a measured size out): each held-out
 * size's median wall time against the projection there (error, inside its CI), and k GPUs' measured speedup over 1
 * GPU against the projected one. How a user checks a fit from small sizes on one bigger run, without GPU time.
 */

import type { SizeEstimate } from '../measure/index.ts'
import type { ComparisonCapacity } from './compare.ts'
import type { ConfigCapacity } from './model.ts'

/** One configuration's completed runs at one size the fit left out. */
export interface HeldOut {
  label: string
  gpuCount: number
  records: number
  sequences: number
  runs: number
  medianWallMs: number
}

export interface HeldOutCheck extends HeldOut {
  projectedMs: SizeEstimate | null
  errorPct: number | null
  insideCi: boolean | null
}

export interface SpeedupCheck {
  gpuCount: number
  sequences: number
  measured: number
  projected: SizeEstimate | null
  insideCi: boolean | null
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, b)
const inside = (e: SizeEstimate | null, x: number) => (e?.ci ? e.ci.low <= x && x <= e.ci.high : null)

/** Each held-out size against its projection (the refit must have projected to it: pass its sequences as extra sizes). */
export function heldOutChecks(
  stats: { configurations: readonly ConfigCapacity[] },
  heldOut: readonly HeldOut[],
): HeldOutCheck[] {
  return heldOut.map((h) => {
    const at = stats.configurations.find((c) => c.label === h.label)?.at.find((a) => near(a.sequences, h.sequences))
    const projectedMs = at?.wallMs ?? null
    return {
      ...h,
      projectedMs,
      errorPct: projectedMs ? ((projectedMs.estimate - h.medianWallMs) / h.medianWallMs) * 100 : null,
      insideCi: inside(projectedMs, h.medianWallMs),
    }
  })
}

const count = (x: number) => Math.round(x).toLocaleString('en-US')

/** Where a missed check's words turn from the miss to what would settle it (capacity/decisions.ts reads the rest). */
export const SETTLE_CLAUSE = '; what would settle it: '
const hoursText = (ms: number) => `${(ms / 3_600_000).toFixed(3)} h`

/**
 * Per GPU count, why its size model does not hold: the first held-out check it missed, in words (the answer's status,
 * every decision read from that configuration): the largest size it fitted, by how much it missed the run beyond it,
 * and what would settle it. Empty where every check is inside its interval (or none was run).
 */
export function missedChecks(checks: readonly HeldOutCheck[]): Map<number, string> {
  const out = new Map<number, string>()
  for (const c of checks) {
    if (c.insideCi !== false || out.has(c.gpuCount) || !c.projectedMs?.ci) continue
    const p = c.projectedMs
    const ci = p.ci!
    out.set(
      c.gpuCount,
      `the size model does not hold beyond the sizes it fitted: ${c.label}'s held-out run of ${count(c.records)} records took ${hoursText(c.medianWallMs)}, the model projected ${hoursText(p.estimate)} [${hoursText(ci.low)}, ${hoursText(ci.high)}] (${c.errorPct! >= 0 ? '+' : ''}${c.errorPct!.toFixed(1)}%, outside its interval)${SETTLE_CLAUSE}fit sizes up to ${count(c.records)} records and hold out a larger one (a larger sample), or run the size you plan directly`,
    )
  }
  return out
}

/** k GPUs against 1 at each held-out size both measured: measured median ratio against the projected speedup. */
export function heldOutSpeedups(
  stats: { comparisons: readonly ComparisonCapacity[] },
  heldOut: readonly HeldOut[],
): SpeedupCheck[] {
  return heldOut
    .filter((h) => h.gpuCount > 1)
    .flatMap((h) => {
      const base = heldOut.find((b) => b.gpuCount === 1 && near(b.sequences, h.sequences))
      if (!base) return []
      const cmp = stats.comparisons.find((c) => c.candidate === h.label)
      const projected = cmp?.at.find((a) => near(a.sequences, h.sequences))?.speedup ?? null
      const measured = base.medianWallMs / h.medianWallMs
      return [
        { gpuCount: h.gpuCount, sequences: h.sequences, measured, projected, insideCi: inside(projected, measured) },
      ]
    })
}
