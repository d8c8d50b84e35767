/**
 * One configuration's size model and what it says (kind `capacity`, per configuration): each part of the wall time
 * as fixed + per-sequence, the wall time at the measured size and projected to the target sizes, and each GPU stage's
 * start-up (before the GPU's first work), steady-state utilization (after it) and utilization projected to the targets.
 * Sizes are in sequences of the input's average GPU work (capacity-runs.ts says why), so a projection to M sequences
 * of the same input is a projection to M x its work per record.
 */
import {
  asymptoticRatio,
  createRandomSource,
  fitSizeModel,
  median,
  percentileInterval,
  projectSeries,
  ratioAt,
  type SizeEstimate,
  type SizeModel,
  toSorted,
} from '../measure/index.ts'
import { busySeries, type CapacityRun, commonSeries, OUTSIDE_STAGES, WALL } from './capacity-runs.ts'
import { type EstimateStat, estimate, toStat } from './stage-metrics.ts'

export interface PartFigures {
  name: string
  fixedMs: SizeEstimate
  msPerSequence: SizeEstimate
}

export interface SizeFigures {
  sequences: number
  wallMs: SizeEstimate
}

export interface StageCapacity {
  stage: string
  /** From the runs at the largest size: start-up before the GPU's first work, and utilization after it. */
  startupMs: EstimateStat | null
  steadyUtilPct: EstimateStat | null
  /** GPU-busy time over stage time, from the model, at each size of `at`. */
  utilAt: { sequences: number; utilPct: SizeEstimate }[]
  /** Utilization as the input grows without bound (busy per sequence over stage time per sequence). */
  asymptoticUtilPct: SizeEstimate | null
  /** The stage's fixed part and its share of the stage at the production size: what is start-up, what is steady. */
  fixedMs: SizeEstimate
  msPerSequence: SizeEstimate
}

export interface ConfigCapacity {
  label: string
  gpuCount: number
  /** Runs per measured size (records of the nested subset, sequence-equivalents of its work, completed runs). */
  sizes: { records: number; sequences: number; runs: number; medianWallMs: number }[]
  ciProblem: string | null
  parts: PartFigures[]
  wall: PartFigures
  /** The largest measured size, then each target. */
  at: SizeFigures[]
  stages: StageCapacity[]
  /** The wall time over a log-spaced range of sizes, for the capacity chart. */
  curve: { sequences: number; wallMs: number; low: number | null; high: number | null }[]
}

/** Sizes for the chart: 3 points a decade from 100 sequences to 10x the largest target. */
export function curveSizes(largestTarget: number): number[] {
  const out: number[] = []
  for (let e = 2; e <= Math.log10(largestTarget * 10) + 1e-9; e += 1 / 3) out.push(Math.round(10 ** e))
  return out
}

const pct = (e: SizeEstimate): SizeEstimate => ({
  estimate: e.estimate * 100,
  ci: e.ci ? { ...e.ci, low: e.ci.low * 100, high: e.ci.high * 100 } : null,
})

function partFigures(model: SizeModel, name: string): PartFigures {
  const f = model.fits[name]!
  const d = model.draws?.[name]
  const interval = (values: Float64Array | undefined) =>
    values ? { ...percentileInterval(Float64Array.from(values).sort(), 0.95), level: 0.95 } : null
  return {
    name,
    fixedMs: { estimate: f.fixed, ci: interval(d?.fixed) },
    msPerSequence: { estimate: f.perUnit, ci: interval(d?.perUnit) },
  }
}

function stageCapacity(model: SizeModel, stage: string, largest: CapacityRun[], sizes: number[]): StageCapacity {
  const busy = busySeries(stage)
  const hasBusy = model.series.includes(busy)
  const part = partFigures(model, stage)
  return {
    stage,
    startupMs: toStat(
      estimate(
        largest.map((r) => r.startup[stage]?.startupMs ?? null),
        `${stage} start-up`,
      ),
    ),
    steadyUtilPct: toStat(
      estimate(
        largest.map((r) => r.startup[stage]?.steadyUtilPct ?? null),
        `${stage} steady util`,
      ),
    ),
    utilAt: hasBusy
      ? sizes.map((sequences) => ({ sequences, utilPct: pct(ratioAt(model, busy, stage, sequences)) }))
      : [],
    asymptoticUtilPct: hasBusy ? pct(asymptoticRatio(model, busy, stage)) : null,
    fixedMs: part.fixedMs,
    msPerSequence: part.msPerSequence,
  }
}

export interface ConfigInput {
  label: string
  gpuCount: number
  /** Completed runs, each with its size in sequence-equivalents, and the subset's record count by size. */
  runs: CapacityRun[]
  recordsBySize: ReadonlyMap<number, number>
}

/**
 * Fits one configuration. Null when its completed runs do not span two sizes (the reason is the caller's: which
 * measurement failed).
 * @param targets target sizes in sequences (thresholds.perf01: typical, production).
 */
export function configCapacity(
  input: ConfigInput,
  gpuStages: readonly string[],
  targets: readonly number[],
  seed: string,
): { figures: ConfigCapacity; model: SizeModel } | null {
  const sizes = [...new Set(input.runs.map((r) => r.size))].sort((a, b) => a - b)
  if (sizes.length < 2) return null
  const series = commonSeries(input.runs)
  const model = fitSizeModel(input.runs, { series, referenceSeries: WALL, random: createRandomSource(seed) })
  const largestSize = sizes.at(-1)!
  const largest = input.runs.filter((r) => r.size === largestSize)
  const atSizes = [largestSize, ...targets]
  const stages = gpuStages.filter((s) => series.includes(s))
  return {
    model,
    figures: {
      label: input.label,
      gpuCount: input.gpuCount,
      sizes: model.groups.map((g) => ({
        records: input.recordsBySize.get(g.size) ?? Math.round(g.size),
        sequences: g.size,
        runs: g.runs,
        medianWallMs: median(
          toSorted(
            input.runs.filter((r) => r.size === g.size).map((r) => r.values[WALL]!),
            'capacity wall',
          ),
        ),
      })),
      ciProblem: model.ciProblem,
      parts: series.filter((s) => s !== WALL && !s.startsWith('busy: ')).map((s) => partFigures(model, s)),
      wall: partFigures(model, WALL),
      at: atSizes.map((sequences) => ({ sequences, wallMs: projectSeries(model, WALL, sequences) })),
      stages: stages.map((stage) => stageCapacity(model, stage, largest, atSizes)),
      curve: curveSizes(Math.max(...targets)).map((sequences) => {
        const e = projectSeries(model, WALL, sequences)
        return { sequences, wallMs: e.estimate, low: e.ci?.low ?? null, high: e.ci?.high ?? null }
      }),
    },
  }
}

export { OUTSIDE_STAGES }
