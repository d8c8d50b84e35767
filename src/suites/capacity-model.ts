/**
 * One configuration's size model and what it says: each part of the wall time as fixed + per-sequence, the wall time
 * at the measured size and projected to the target sizes, and each GPU stage's start-up (before the GPU's first work),
 * steady-state utilization (after it) and utilization projected to the targets. Sizes are in sequences of the input's
 * average GPU work (capacity-runs.ts says why).
 *
 * The wall time is the sum of its parts, the start-up parts held constant over sizes while the data agree
 * (capacity-parts.ts says why and how that is checked); every record also keeps a plain line through the wall times
 * (`unconstrainedAt`) for comparison.
 */
import {
  asymptoticRatio,
  createRandomSource,
  estimateFrom,
  fitSizeModel,
  type LineSelector,
  median,
  medianWithCi,
  projectSeries,
  ratioAt,
  type SizeEstimate,
  type SizeModel,
  seriesLine,
  standardDeviation,
  toSorted,
  valueAt,
} from '../measure/index.ts'
import { type DominantPart, dominantParts } from './capacity-dominant.ts'
import { type ConstantPartCheck, checkConstants, partLine, partsOf, stageOf, wallOf } from './capacity-parts.ts'
import { busySeries, type CapacityRun, commonSeries, OUTSIDE_STAGES, WALL } from './capacity-runs.ts'
import { type SharedPartCheck, type SharedParts, withSharedParts } from './capacity-shared.ts'
import { type ModelSupport, modelSupport } from './capacity-support.ts'
import { type EstimateStat, estimate, toStat } from './stage-metrics.ts'

export interface PartFigures {
  name: string
  shape: 'line' | 'constant'
  fixedMs: SizeEstimate
  msPerSequence: SizeEstimate
}

export interface SizeFigures {
  sequences: number
  wallMs: SizeEstimate
  /** The parts that make the CI this wide, largest share first (empty without draws). */
  dominant?: DominantPart[]
}

export interface StageCapacity {
  stage: string
  /** From the runs at the largest size: start-up before the GPU's first work, and utilization after it. */
  startupMs: EstimateStat | null
  steadyUtilPct: EstimateStat | null
  /** GPU-busy time over stage time, from the model, at each size of `at` (CI clipped to 0-100%). */
  utilAt: { sequences: number; utilPct: SizeEstimate }[]
  /** Utilization as the input grows without bound (busy per sequence over stage time per sequence). */
  asymptoticUtilPct: SizeEstimate | null
  /** The stage as fixed + per-sequence: what is start-up and what is steady state. */
  fixedMs: SizeEstimate
  msPerSequence: SizeEstimate
}

export interface ConfigCapacity {
  label: string
  gpuCount: number
  /** Runs per measured size (records of the nested subset, sequence-equivalents of its work, completed runs). */
  sizes: {
    records: number
    sequences: number
    runs: number
    medianWallMs: number
    /** The median's CI over the runs (order statistic; [min, max] for 3 runs); null with one run. */
    medianWallCi: { low: number; high: number } | null
    /**
     * The runs' standard deviation of the parts fitted as lines (ms; null with one run): the noise that carries into
     * the per-sequence cost and so into a projection (a start-up held constant does not): what the design weighs.
     */
    lineSdMs: number | null
  }[]
  ciProblem: string | null
  /** The parts the wall time is the sum of. */
  parts: PartFigures[]
  constantParts: ConstantPartCheck[]
  wall: PartFigures
  /** The largest measured size, then each projected size. */
  at: SizeFigures[]
  /** The same sizes from a plain line through the wall times (no parts, nothing held constant): for comparison. */
  unconstrainedAt: SizeFigures[]
  stages: StageCapacity[]
  /** The wall time over a log-spaced range of sizes, for the capacity chart. */
  curve: { sequences: number; wallMs: number; low: number | null; high: number | null }[]
  /** Whether the runs support a projection at all (invariants, each measured size reproduced); why not, what next. */
  support: ModelSupport
  /** CPU-stage parts and whether they were fitted over every configuration's runs (capacity-shared.ts). */
  sharedParts: SharedPartCheck[]
  /** Per stage with progress lines: the runs whose steady part was read inside them, of all runs. */
  steady: { stage: string; runs: number; of: number }[]
}

/**
 * Sizes for the chart: 3 points a decade from the decade below the smallest measured size (100 at most, so the
 * curve meets the measured points) to 10x the largest target.
 */
export function curveSizes(smallestMeasured: number, largestTarget: number): number[] {
  const from = 3 * Math.min(2, Math.floor(Math.log10(Math.max(1, smallestMeasured))))
  const to = Math.ceil(3 * Math.log10(largestTarget * 10) - 1e-9)
  const out: number[] = []
  for (let k = from; k <= to; k++) out.push(Math.round(10 ** (k / 3)))
  return out
}

/** A fraction as a percentage; a utilization is clipped to 0-100% (estimate and CI): a GPU is never more than busy. */
const pct = (e: SizeEstimate, clip = false): SizeEstimate => {
  const bound = (x: number) => (clip ? Math.min(100, Math.max(0, x * 100)) : x * 100)
  return { estimate: bound(e.estimate), ci: e.ci ? { ...e.ci, low: bound(e.ci.low), high: bound(e.ci.high) } : null }
}

function lineFigures(model: SizeModel, read: LineSelector) {
  return {
    fixedMs: estimateFrom([model], (line) => read(line).fixed),
    msPerSequence: estimateFrom([model], (line) => read(line).perUnit),
  }
}

function partFigures(model: SizeModel, name: string): PartFigures {
  return { name, shape: model.shapes[name] ?? 'line', ...lineFigures(model, (line) => partLine(line, name)) }
}

function stageCapacity(model: SizeModel, stage: string, largest: CapacityRun[], sizes: number[]): StageCapacity {
  const busy = seriesLine(busySeries(stage))
  const hasBusy = model.series.includes(busySeries(stage))
  const stageLine = stageOf(model, stage)
  const median = (get: (r: CapacityRun) => number | null, what: string) => toStat(estimate(largest.map(get), what))
  return {
    stage,
    startupMs: median((r) => r.startup[stage]?.startupMs ?? null, `${stage} start-up`),
    steadyUtilPct: median((r) => r.startup[stage]?.steadyUtilPct ?? null, `${stage} steady util`),
    utilAt: hasBusy
      ? sizes.map((sequences) => ({ sequences, utilPct: pct(ratioAt(model, busy, stageLine, sequences), true) }))
      : [],
    asymptoticUtilPct: hasBusy ? pct(asymptoticRatio(model, busy, stageLine), true) : null,
    ...lineFigures(model, stageLine),
  }
}

export interface ConfigInput {
  label: string
  gpuCount: number
  /** Completed runs, each with its size in sequence-equivalents, and the subset's record count by size. */
  runs: CapacityRun[]
  recordsBySize: ReadonlyMap<number, number>
}

const wallEstimates = (model: SizeModel, parts: readonly string[], sizes: readonly number[]) =>
  sizes.map((sequences) => ({
    sequences,
    wallMs: estimateFrom([model], (line) => valueAt(wallOf(parts)(line), sequences)),
  }))

/** Per stage with progress lines in some run: how many runs had their steady part read inside them. */
const steadyCoverage = (runs: readonly CapacityRun[]) =>
  [...new Set(runs.flatMap((r) => Object.keys(r.steady)))].map((stage) => ({
    stage,
    runs: runs.filter((r) => r.steady[stage]).length,
    of: runs.length,
  }))

function sizeRows(model: SizeModel, input: ConfigInput, parts: readonly string[]) {
  const lineParts = parts.filter((p) => model.shapes[p] !== 'constant')
  return model.groups.map((g) => {
    const runs = input.runs.filter((r) => r.size === g.size)
    const walls = toSorted(
      runs.map((r) => r.values[WALL]!),
      'capacity wall',
    )
    const { ci } = medianWithCi(walls)
    return {
      records: input.recordsBySize.get(g.size) ?? Math.round(g.size),
      sequences: g.size,
      runs: g.runs,
      medianWallMs: median(walls),
      medianWallCi: ci ? { low: ci.low, high: ci.high } : null,
      lineSdMs:
        runs.length > 1
          ? standardDeviation(
              toSorted(
                runs.map((r) => lineParts.reduce((a, p) => a + r.values[p]!, 0)),
                'capacity line parts',
              ),
            )
          : null,
    }
  })
}

/**
 * Fits one configuration. Null when its completed runs do not span two sizes (the reason is the caller's: which
 * measurement failed).
 * @param projected sizes to project to after the largest measured one (sequences; the last is the production size)
 */
export function configCapacity(
  input: ConfigInput,
  gpuStages: readonly string[],
  projected: readonly number[],
  seed: string,
  /** CPU-stage parts fitted over every configuration's runs (capacity-shared.ts); none: each part its own. */
  shared: SharedParts = { model: null, series: [], checks: [] },
): { figures: ConfigCapacity; model: SizeModel; parts: string[] } | null {
  const sizes = [...new Set(input.runs.map((r) => r.size))].sort((a, b) => a - b)
  if (sizes.length < 2) return null
  const series = commonSeries(input.runs)
  const parts = partsOf(series)
  const fitModel = (constant: string[]) =>
    withSharedParts(
      fitSizeModel(input.runs, {
        series,
        constant,
        nonNegative: true,
        referenceSeries: WALL,
        random: createRandomSource(seed),
      }),
      shared,
    )
  const lines = fitModel([])
  const production = Math.max(...projected)
  const constantParts = checkConstants(lines, parts, production)
  const model = fitModel(constantParts.filter((c) => c.heldConstant).map((c) => c.name))
  const largestSize = sizes.at(-1)!
  const atSizes = [largestSize, ...projected]
  const at = wallEstimates(model, parts, atSizes).map((a) => ({
    ...a,
    dominant: dominantParts(model, parts, a.sequences),
  }))
  const rows = sizeRows(model, input, parts)
  const wall = { name: WALL, shape: 'line' as const, ...lineFigures(model, wallOf(parts)) }
  const partRows = parts.map((p) => partFigures(model, p))
  return {
    model,
    parts,
    figures: {
      label: input.label,
      gpuCount: input.gpuCount,
      sizes: rows,
      ciProblem: model.ciProblem,
      parts: partRows,
      constantParts,
      wall,
      at,
      unconstrainedAt: atSizes.map((sequences) => ({ sequences, wallMs: projectSeries(lines, WALL, sequences) })),
      stages: gpuStages
        .filter((s) => series.includes(s))
        .map((stage) =>
          stageCapacity(
            model,
            stage,
            input.runs.filter((r) => r.size === largestSize),
            atSizes,
          ),
        ),
      curve: wallEstimates(model, parts, curveSizes(sizes[0]!, production)).map(({ sequences, wallMs }) => ({
        sequences,
        wallMs: wallMs.estimate,
        low: wallMs.ci?.low ?? null,
        high: wallMs.ci?.high ?? null,
      })),
      support: modelSupport({
        model,
        parts,
        wall,
        sizes: rows,
        at,
        partFigures: partRows,
        recordsPerSequence: rows.at(-1)!.records / largestSize,
      }),
      steady: steadyCoverage(input.runs),
      sharedParts: shared.checks,
    },
  }
}

export { OUTSIDE_STAGES }
