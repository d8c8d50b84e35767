/**
 * One configuration's size model and what it says: each part of the wall time as fixed + per-sequence, the wall time
 * at the measured size and projected to the target sizes, and each GPU stage's start-up (before the GPU's first work),
 * steady-state utilization (after it) and utilization projected to the targets. Sizes are in sequences of the input's
 * average GPU work (capacity/runs.ts says why).
 *
 * The wall time is the sum of its parts, the start-up parts held constant over sizes while the data agree
 * (capacity/parts.ts says why and how that is checked); every record also keeps a plain line through the wall times
 * (`unconstrainedAt`) for comparison.
 */
import {
  createRandomSource,
  estimateFrom,
  fitSizeModel,
  median,
  medianWithCi,
  projectSeries,
  type SizeEstimate,
  type SizeModel,
  standardDeviation,
  toSorted,
} from '../measure/index.ts'
import { withBuilds } from './builds.ts'
import { type DominantPart, dominantParts } from './dominant.ts'
import {
  type CapacityModel,
  CONSTANT_PART_TOLERANCE,
  type ConstantPartCheck,
  checkConstants,
  partLine,
  partsOf,
  partsOfStage,
  stagesOf,
  valueOfParts,
  wallOf,
} from './parts.ts'
import { perFileChecks } from './per-file.ts'
import type { RateSource } from './rates.ts'
import { type CapacityRun, commonSeries, OUTSIDE_STAGES, WALL } from './runs.ts'
import { type SharedPartCheck, type SharedParts, withSharedParts } from './shared.ts'
import { lineFigures, type StageCapacity, stageCapacity } from './stage-capacity.ts'
import { type ModelSupport, modelSupport } from './support.ts'
import { fewestWorkerItems } from './worker-items.ts'

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

/** The model's error at its largest size when fitted without it (capacity/misfit.ts). */
export interface SizeMisfit {
  /**
   * Where it was seen: the largest measured size left out of a refit (`leave-one-out`), or the held-out check's run
   * (`held-out`: a size the model never saw). Absent in records written before the held-out check.
   */
  source?: 'leave-one-out' | 'held-out'
  /** The size left out (the largest measured, or the held-out one; sequences) and the sizes the fit had. */
  leftOut: number
  fittedSizes: number[]
  /** The refit's projection there and the runs' mean (ms). */
  predictedMs: number
  measuredMs: number
  /** (measured - predicted) over the refit's predicted growth from the next size down, %: the share applied beyond. */
  growthErrorPct: number
}

export interface ConfigCapacity {
  label: string
  gpuCount: number
  /** The architecture its runs ran (issue 56: `v2.0`, `v1.0`); null or absent where unknown (records before it). */
  architecture?: string | null
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
  /**
   * Each stage's time at the production size (and the time outside every stage), the stage's parts summed on each
   * draw (builds per file as the steps they are): which stage holds that size back. Absent in records written before.
   */
  stagesAtProduction?: { stage: string; sequences: number; ms: SizeEstimate }[]
  /** The same sizes from a plain line through the wall times (no parts, nothing held constant): for comparison. */
  unconstrainedAt: SizeFigures[]
  stages: StageCapacity[]
  /** The wall time over a log-spaced range of sizes, for the capacity chart. */
  curve: { sequences: number; wallMs: number; low: number | null; high: number | null }[]
  /** Whether the runs support a projection at all (invariants, each measured size reproduced); why not, what next. */
  support: ModelSupport
  /** CPU-stage parts and whether they were fitted over every configuration's runs (capacity/shared.ts). */
  sharedParts: SharedPartCheck[]
  /**
   * Per stage with a steady part read inside some run: the runs it was read inside, of all runs, and where it was read
   * (one source for all the configuration's runs: capacity/steady.ts).
   */
  steady: { stage: string; runs: number; of: number; source: RateSource }[]
  /**
   * Per stage with per-worker progress, the fewest items a worker got in any run at the largest measured size
   * (capacity/worker-items.ts): what the batching precondition reads. Absent in records written before it.
   */
  workerItems?: Record<string, number>
  /**
   * The model's error out of sample (capacity/misfit.ts), which every interval of `at` beyond the largest measured
   * size carries; null: fewer than three sizes, so none could be seen. Absent in records written before it.
   */
  misfit?: SizeMisfit | null
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

function partFigures(model: CapacityModel, name: string, level: number): PartFigures {
  return {
    name,
    shape: model.shapes[name] ?? 'line',
    ...lineFigures(model, (line) => partLine(line, name, model), level),
  }
}

export interface ConfigInput {
  label: string
  gpuCount: number
  /** Completed runs, each with its size in sequence-equivalents, and the subset's record count by size. */
  runs: CapacityRun[]
  recordsBySize: ReadonlyMap<number, number>
}

const wallEstimates = (model: CapacityModel, parts: readonly string[], sizes: readonly number[], level: number) =>
  sizes.map((sequences) => ({
    sequences,
    wallMs: estimateFrom([model], (line) => valueOfParts(model, parts)(line, sequences), level),
  }))

/** Per stage with a steady part in some run: how many runs had it read inside them, and from what. */
const steadyCoverage = (runs: readonly CapacityRun[]) =>
  [...new Set(runs.flatMap((r) => Object.keys(r.steady)))].map((stage) => {
    const read = runs.filter((r) => r.steady[stage])
    // One source for all the configuration's runs (capacity/steady.ts); a run built without one: batch lines.
    return { stage, runs: read.length, of: runs.length, source: read[0]!.steady[stage]!.source ?? 'batch-lines' }
  })

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
  /** CPU-stage parts fitted over every configuration's runs (capacity/shared.ts); none: each part its own. */
  shared: SharedParts = { model: null, series: [], checks: [] },
  /** The level of every CI of the figures (capacity/decisions.ts: a look's level); the checks keep their own. */
  level = 0.95,
  /**
   * Whether to make the answer's own figures: each stage's time at production and the chart's curve (a draw per size
   * of the curve, or per stage, and per draw of the model: half an analysis's time); a design's look reads neither.
   */
  answerFigures = true,
): { figures: ConfigCapacity; model: CapacityModel; parts: string[] } | null {
  const sizes = [...new Set(input.runs.map((r) => r.size))].sort((a, b) => a - b)
  if (sizes.length < 2) return null
  // Builds per file as a part of their own (capacity/builds.ts): the runs fitted are these.
  const { runs, fileCounts } = withBuilds(input.runs, commonSeries(input.runs))
  const builds = Object.keys(fileCounts)
  const series = commonSeries(runs)
  const parts = partsOf(series)
  const fitModel = (constant: string[]): CapacityModel => ({
    ...withSharedParts(
      fitSizeModel(runs, {
        series,
        constant: [...constant, ...builds],
        nonNegative: true,
        // A steady part (a span of progress lines) runs below proportion at a small size: see fitNonNegativeLine.
        floorAtSmallest: series.filter((s) => s.startsWith('steady: ')),
        referenceSeries: WALL,
        random: createRandomSource(seed),
      }),
      shared,
    ),
    fileCounts,
  })
  const lines = fitModel([])
  const production = Math.max(...projected)
  const constantParts = checkConstants(lines, parts, production)
  const model = fitModel(constantParts.filter((c) => c.heldConstant).map((c) => c.name))
  const largestSize = sizes.at(-1)!
  const atSizes = [largestSize, ...projected]
  const at = wallEstimates(model, parts, atSizes, level).map((a) => ({
    ...a,
    dominant: dominantParts(model, parts, a.sequences),
  }))
  const rows = sizeRows(model, { ...input, runs }, parts)
  const stagesAtProduction = (answerFigures ? stagesOf(series) : []).map((stage) => ({
    stage,
    sequences: production,
    ms: estimateFrom([model], (line) => valueOfParts(model, partsOfStage(model, stage))(line, production), level),
  }))
  const perFile = perFileChecks(
    input.runs,
    production,
    at.at(-1)!.wallMs.estimate,
    CONSTANT_PART_TOLERANCE,
    new Set(builds.map((b) => b.replace(/^builds: /, ''))),
  )
  const wall = { name: WALL, shape: 'line' as const, ...lineFigures(model, wallOf(parts, model), level) }
  const partRows = parts.map((p) => partFigures(model, p, level))
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
      stagesAtProduction,
      unconstrainedAt: atSizes.map((sequences) => ({
        sequences,
        wallMs: projectSeries(lines, WALL, sequences, level),
      })),
      stages: gpuStages
        .filter((s) => series.includes(s))
        .map((stage) =>
          stageCapacity(
            model,
            stage,
            runs.filter((r) => r.size === largestSize),
            atSizes,
            level,
          ),
        ),
      curve: wallEstimates(model, parts, answerFigures ? curveSizes(sizes[0]!, production) : [], level).map(
        ({ sequences, wallMs }) => ({
          sequences,
          wallMs: wallMs.estimate,
          low: wallMs.ci?.low ?? null,
          high: wallMs.ci?.high ?? null,
        }),
      ),
      support: modelSupport({
        model,
        parts,
        wall,
        sizes: rows,
        at,
        partFigures: partRows,
        recordsPerSequence: rows.at(-1)!.records / largestSize,
        perFile,
      }),
      steady: steadyCoverage(input.runs),
      workerItems: fewestWorkerItems(input.runs.filter((r) => r.size === largestSize)),
      sharedParts: shared.checks,
    },
  }
}

export type { StageCapacity }
export { OUTSIDE_STAGES }
