/**
 * Scaling for a whole run set: the total, every stage, and PERF-03 (ESM-2 on 2 GPUs >= 1.9x) when it applies.
 * Each measurement gets its own random stream (seed + name) so that results do not depend on stage order.
 */
import { createRandomSource, DEFAULT_SEED } from './rng.ts'
import { PERF03, type ScalingBand, type SpeedupOptions, type SpeedupResult, speedup } from './scaling.ts'

export interface TimesPair {
  singleGpuMs: readonly number[]
  multiGpuMs: readonly number[]
}

export interface ScalingInput {
  gpuCount: number
  total: TimesPair
  /** Per stage, keyed by stage name as the log gives it (e.g. 'ESM-2 Feature Extraction'). */
  stages: Readonly<Record<string, TimesPair>>
}

export interface ScalingReport {
  gpuCount: number
  total: SpeedupResult
  stages: Record<string, SpeedupResult>
  /** PERF-03 verdict; null when the run set is not 2 GPUs or has no ESM-2 stage. */
  perf03: SpeedupResult | null
}

export interface ScalingReportOptions extends Omit<SpeedupOptions, 'random' | 'band'> {
  seed?: string
  /** Band overrides by stage name; stages without one use the GPU-count default. */
  stageBands?: Readonly<Record<string, ScalingBand | null>>
  band?: ScalingBand | null
}

/**
 * Speedups for the total and each stage, with PERF-03.
 * @throws MeasureInputError (from speedup) when times are missing, not finite or not positive.
 */
export function scalingReport(input: ScalingInput, options: ScalingReportOptions = {}): ScalingReport {
  const seed = options.seed ?? DEFAULT_SEED
  const { stageBands, seed: _seed, band, ...shared } = options
  const run = (name: string, pair: TimesPair, bandFor: ScalingBand | null | undefined): SpeedupResult => {
    const settings: SpeedupOptions = { ...shared, random: createRandomSource(`${seed}/scaling/${name}`) }
    if (bandFor !== undefined) settings.band = bandFor
    return speedup(pair.singleGpuMs, pair.multiGpuMs, input.gpuCount, settings)
  }
  const stages: Record<string, SpeedupResult> = {}
  for (const [name, pair] of Object.entries(input.stages)) {
    stages[name] = run(name, pair, stageBands !== undefined && name in stageBands ? stageBands[name] : band)
  }
  const esm2 = input.stages[PERF03.stage]
  const perf03 = input.gpuCount === PERF03.gpuCount && esm2 !== undefined ? run('PERF-03', esm2, PERF03.band) : null
  return { gpuCount: input.gpuCount, total: run('total', input.total, band), stages, perf03 }
}
