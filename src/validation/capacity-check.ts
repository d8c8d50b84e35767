/**
 * Known-answer checks of the size model (src/capacity*.ts) against runs it was not fitted on:
 * - direct: a fit from small sizes against runs measured directly at a larger size (wall time within a tolerance;
 *   a measured k-GPU speedup inside the projected CI);
 * - shift: a fault planted on top of the same configuration moves what it should (a fixed cost moves the measured-size
 *   figures and not the production-size projection; a per-batch stall moves both).
 * Pure: stats of capacity records in, figures out.
 */

import type { CapacityStats } from '../capacity/index.ts'
import type { SizeEstimate } from '../measure/index.ts'

export interface DirectCheck {
  label: string
  sequences: number
  projectedMs: SizeEstimate
  measuredMs: number
  /** (projected - measured) / measured. */
  relativeError: number
  within: boolean
  measuredInsideCi: boolean | null
}

export interface SpeedupCheck {
  gpuCount: number
  projected: SizeEstimate
  measured: number
  insideCi: boolean | null
}

const near = (a: number, b: number) => Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(b))

/** The projection of `label` at `sequences` (a size the fit was asked to project to). @throws RangeError when absent. */
function projectionAt(stats: CapacityStats, label: string, sequences: number): SizeEstimate {
  const config = stats.configurations.find((c) => c.label === label)
  const at = config?.at.find((a) => near(a.sequences, sequences))
  if (!at) throw new RangeError(`capacity stats have no projection of '${label}' at ${sequences} sequences`)
  return at.wallMs
}

/**
 * Projected against measured wall time, per configuration.
 * @param measuredMs median measured wall time of each configuration (by label) at `sequences`
 */
export function checkDirect(
  stats: CapacityStats,
  sequences: number,
  measuredMs: ReadonlyMap<string, number>,
  tolerance = 0.05,
): DirectCheck[] {
  return [...measuredMs].map(([label, measured]) => {
    const projectedMs = projectionAt(stats, label, sequences)
    const relativeError = (projectedMs.estimate - measured) / measured
    return {
      label,
      sequences,
      projectedMs,
      measuredMs: measured,
      relativeError,
      within: Math.abs(relativeError) <= tolerance,
      measuredInsideCi: projectedMs.ci ? projectedMs.ci.low <= measured && measured <= projectedMs.ci.high : null,
    }
  })
}

/** The measured speedup (1-GPU median over k-GPU median) against the projected one's CI at `sequences`. */
export function checkSpeedup(
  stats: CapacityStats,
  sequences: number,
  measured: ReadonlyMap<number, number>,
): SpeedupCheck[] {
  return stats.comparisons.flatMap((cmp) => {
    const ratio = measured.get(cmp.gpuCount)
    const at = cmp.at.find((a) => near(a.sequences, sequences))
    if (ratio === undefined || !at) return []
    const ci = at.speedup.ci
    return [
      {
        gpuCount: cmp.gpuCount,
        projected: at.speedup,
        measured: ratio,
        insideCi: ci ? ci.low <= ratio && ratio <= ci.high : null,
      },
    ]
  })
}

export interface ShiftCheck {
  /** Measured-size wall time: planted - clean (ms), from each fit's largest-size group median. */
  measuredShiftMs: number
  /** Projected wall time at `sequences`: (planted - clean) / clean. */
  projectedShift: number
  cleanMs: number
  plantedMs: number
}

/** How far a planted fault moved one configuration's measured-size time and its projection at `sequences`. */
export function checkShift(
  clean: CapacityStats,
  planted: CapacityStats,
  cleanLabel: string,
  plantedLabel: string,
  sequences: number,
): ShiftCheck {
  const largest = (stats: CapacityStats, label: string) => {
    const sizes = stats.configurations.find((c) => c.label === label)?.sizes
    if (!sizes?.length) throw new RangeError(`capacity stats have no sizes for '${label}'`)
    return sizes.at(-1)!.medianWallMs
  }
  const cleanMs = projectionAt(clean, cleanLabel, sequences).estimate
  const plantedMs = projectionAt(planted, plantedLabel, sequences).estimate
  return {
    measuredShiftMs: largest(planted, plantedLabel) - largest(clean, cleanLabel),
    projectedShift: (plantedMs - cleanMs) / cleanMs,
    cleanMs,
    plantedMs,
  }
}

export interface PreworkCheck {
  /** What was planted, per sequence-equivalent (ms per protein x proteins per sequence). */
  plantedMsPerSequence: number
  /** The fitted per-sequence slope of the planted stage's start-up part (`pre:` or `startup:`), 0 when held constant. */
  fittedMsPerSequence: number
  /** Projected wall time at `sequences`, clean and planted, and the shift the planted work alone would make. */
  cleanMs: number
  plantedMs: number
  expectedShiftMs: number
  /** Whether the planted configuration's runs support a projection (capacity/support.ts). */
  supported: boolean
  /** Parts with a negative fixed or per-sequence figure (estimate or CI): never any. */
  negativeParts: string[]
}

/**
 * A start-up that grows with the input (prework-ms-per-seq before a stage's first batch): its part of the planted fit
 * must carry the planted slope, and the production projection must move by the planted work, never below the clean one.
 */
export function checkPrework(
  clean: CapacityStats,
  planted: CapacityStats,
  plantedLabel: string,
  stage: string,
  plantedMsPerSequence: number,
  sequences: number,
): PreworkCheck {
  const config = planted.configurations.find((c) => c.label === plantedLabel)
  if (!config) throw new RangeError(`capacity stats have no configuration '${plantedLabel}'`)
  const startUp = config.parts.find((p) => p.name === `pre: ${stage}` || p.name === `startup: ${stage}`)
  const negativeParts = config.parts
    .filter((p) => [p.fixedMs, p.msPerSequence].some((e) => e.estimate < 0 || (e.ci !== null && e.ci.low < 0)))
    .map((p) => p.name)
  return {
    plantedMsPerSequence,
    fittedMsPerSequence: startUp?.msPerSequence.estimate ?? 0,
    cleanMs: projectionAt(clean, clean.configurations[0]!.label, sequences).estimate,
    plantedMs: projectionAt(planted, plantedLabel, sequences).estimate,
    expectedShiftMs: plantedMsPerSequence * sequences,
    supported: config.support.supported,
    negativeParts,
  }
}
