/**
 * Accuracy check of the monitor's energy: joules per sequence from the GPUs' total-energy counters (what the reports
 * give) against mean sampled power x monitored time (an independent estimate from another NVML reading), over the
 * GPUs the run asked for. They should agree within 10%.
 */
import type { MonitorSummary } from '../monitor/summary/summarize.ts'

export type EnergyCheck =
  | {
      state: 'within' | 'outside'
      /** Counter-based J per sequence. */
      counterJPerSequence: number
      /** Mean power x time, J per sequence. */
      powerTimeJPerSequence: number
      /** counter / (power x time) - 1. */
      relativeError: number
      tolerance: number
      gpus: number[]
    }
  | { state: 'missing'; reason: string }

/**
 * @throws RangeError for a non-positive sequence count or a negative tolerance.
 */
export function checkEnergy(summary: MonitorSummary, sequences: number, tolerance = 0.1): EnergyCheck {
  if (!(sequences > 0)) throw new RangeError(`sequences must be > 0, got ${sequences}`)
  if (!(tolerance >= 0)) throw new RangeError(`tolerance must be >= 0, got ${tolerance}`)
  const gpus = summary.gpus.filter((g) => g.requested)
  if (gpus.length === 0) return { state: 'missing', reason: 'no requested GPU in the summary' }
  let counterJ = 0
  let powerTimeJ = 0
  for (const g of gpus) {
    const meanMw = g.metrics.powerMw?.mean
    if (g.energyJ === null) return { state: 'missing', reason: `GPU ${g.gpu}: no energy counter readings` }
    if (meanMw === undefined) return { state: 'missing', reason: `GPU ${g.gpu}: no power samples` }
    counterJ += g.energyJ
    powerTimeJ += (meanMw * summary.durationMs) / 1e6
  }
  if (!(powerTimeJ > 0)) return { state: 'missing', reason: 'mean power x time is 0' }
  const relativeError = counterJ / powerTimeJ - 1
  return {
    state: Math.abs(relativeError) <= tolerance ? 'within' : 'outside',
    counterJPerSequence: counterJ / sequences,
    powerTimeJPerSequence: powerTimeJ / sequences,
    relativeError,
    tolerance,
    gpus: gpus.map((g) => g.gpu),
  }
}
