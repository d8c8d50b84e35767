/**
 * Which parts make a projection's CI as wide as it is: each part's share of the variance of the wall time at a size,
 * over the size model's draws, as cov(part, wall) / var(wall). The shares sum to 100% (a part that moves against the
 * others has a negative share), so a planner sees what to measure better: a start-up part at small sizes, a stage's
 * per-sequence cost at 6 M.
 */
import type { LineOf } from '../measure/index.ts'
import { type CapacityModel, partValue } from './parts.ts'

export interface DominantPart {
  part: string
  /** Share of the variance of the wall time at that size, %. */
  sharePct: number
}

const drawReader =
  (model: CapacityModel, b: number): LineOf =>
  (s) => ({ fixed: model.draws![s]!.fixed[b]!, perUnit: model.draws![s]!.perUnit[b]! })

function mean(xs: Float64Array): number {
  let sum = 0
  for (const x of xs) sum += x
  return sum / xs.length
}

/** The `top` parts by variance share at `size` (sequences); empty when the model has no draws or no spread there. */
export function dominantParts(model: CapacityModel, parts: readonly string[], size: number, top = 3): DominantPart[] {
  if (!model.draws || model.drawCount < 2) return []
  const n = model.drawCount
  const values = parts.map(() => new Float64Array(n))
  const total = new Float64Array(n)
  for (let b = 0; b < n; b++) {
    const line = drawReader(model, b)
    parts.forEach((p, i) => {
      const v = partValue(model, line, p, size)
      values[i]![b] = v
      total[b]! += v
    })
  }
  const totalMean = mean(total)
  let variance = 0
  for (const t of total) variance += (t - totalMean) ** 2
  if (!(variance > 0)) return []
  const shares = parts.map((part, i) => {
    const m = mean(values[i]!)
    let cov = 0
    for (let b = 0; b < n; b++) cov += (values[i]![b]! - m) * (total[b]! - totalMean)
    return { part, sharePct: (cov / variance) * 100 }
  })
  return shares.sort((a, b) => b.sharePct - a.sharePct).slice(0, top)
}
