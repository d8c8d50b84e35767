/**
 * What a run of a pipeline costs on a kind of GPU before this host has run anything (issue 57): the prior a first-ever
 * invocation forecasts from, kept with the suite in forecast-prior.json. Every figure there is derived from measured
 * runs kept in the repository (docs/results, test/fixtures/capacity) by scripts/forecast-prior.ts, each entry naming
 * its runs; test/scripts/forecast-prior.test.ts derives them again and fails on a figure the runs do not give.
 *
 * A run of `records` records of mean length L on `gpus` GPUs of one kind costs
 *   startMs + perKbMs x records x L / 1000 + buildPerFileMs x (files - 1)
 * - startMs: what does not grow with the input (the process, the model builds of one file, the first batch);
 * - perKbMs: the cost per 1,000 bases read, all stages together (work grows with the bases: chunks of 300-500 bp);
 * - buildPerFileMs: VirNucPro's 1-GPU v1.0 path builds ESM-2 again for every file of 10,000 proteins
 *   (docs/UPSTREAM.md); `files` counts them from the proteins a kilobase makes (`perFile`, measured per mean read
 *   length). Its v2.0 path builds ESM-2 once a worker: null there.
 * A cost is of one architecture (issue 56: VirNucPro's v1.0 and v2.0 cost very differently, v2.0's ESM-2 buffering
 * before its first batch), or of none where the runs measured do not tell the paths apart (the reference pipeline's
 * two cost alike at the sizes measured): a run is priced by a cost of its own architecture or of none, never by the
 * other's.
 * A GPU kind is NVML's device name (`NVIDIA H200`); the CPU stand-in (VIRNUCPRO_BENCH_DEVICE=cpu) is `CPU`, measured on
 * the machine the suite's CPU tests run on. No entry for a kind, a GPU count or a model scale: no forecast from it.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'
import type { LengthDistribution } from '../input/lengths.ts'
import { PRESETS, type PresetName } from '../input/presets.ts'
import { ARCHITECTURES, type Architecture } from '../pipeline/architecture-line.ts'

const Cost = z.object({
  pipeline: z.string(),
  /** The reference pipeline's model scale (VIRNUCPRO_BENCH_MODEL_SCALE); null: any (VirNucPro's own models). */
  scale: z.string().nullable(),
  kind: z.string(),
  gpus: z.number().int().positive(),
  /**
   * The path its runs took (VirNucPro's v1.0 or v2.0: their configuration's, which each run's `Architecture:` line
   * was checked against; a record from before it was kept, 1 GPU without --parallel: v1.0); null: not told apart.
   */
  architecture: z.enum(ARCHITECTURES).nullable(),
  startMs: z.number().nonnegative(),
  perKbMs: z.number().nonnegative(),
  buildPerFileMs: z.number().nonnegative().nullable(),
  /** The runs it was derived from, in words: where they are kept and which. */
  from: z.string(),
})

const PerFile = z.object({
  pipeline: z.string(),
  stage: z.string(),
  itemsPerFile: z.number().positive(),
  /** Items (proteins) a kilobase of input makes, measured at these mean read lengths (bp). */
  itemsPerKb: z.array(
    z.object({ meanLengthBp: z.number().positive(), itemsPerKb: z.number().positive(), from: z.string() }),
  ),
})

const FileTime = z.object({
  kind: z.string(),
  file: z.string(),
  ms: z.number().nonnegative(),
  from: z.string(),
})

const ForecastPriorSchema = z.object({
  format: z.literal(1),
  costs: z.array(Cost),
  perFile: z.array(PerFile),
  /** Files whose time is no pipeline run of a plan (the NVML and monitor checks, the runner's timeout test): as measured. */
  fixedFiles: z.array(FileTime),
  /** A pipeline file's time beside its runs (its inputs made, its analysis), per host kind: as measured. */
  fileOverhead: z.array(FileTime),
})

export type ForecastPrior = z.infer<typeof ForecastPriorSchema>
export type RunCost = z.infer<typeof Cost>

export const FORECAST_PRIOR_FILE = join(import.meta.dirname, 'forecast-prior.json')

/** @throws an Error naming the file and the first bad field (a file of the checkout: a bug, not a user's input). */
export function readForecastPrior(file = FORECAST_PRIOR_FILE): ForecastPrior {
  const parsed = ForecastPriorSchema.safeParse(JSON.parse(readFileSync(file, 'utf8')))
  if (parsed.success) return parsed.data
  const issue = parsed.error.issues[0]!
  throw new Error(`${file}: ${issue.path.join('.')}: ${issue.message}`)
}

/** The kind a prior is looked up by: `CPU` where the target runs on the CPU, else GPU 0's NVML name. */
export const priorKind = (device: 'gpu' | 'cpu', gpuNames: readonly string[]): string | null =>
  device === 'cpu' ? 'CPU' : (gpuNames[0] ?? null)

/** Where a cost applies: a pipeline at a model scale, on a GPU count of a kind. */
interface CostAt {
  pipeline: string
  scale: string
  kind: string
  gpus: number
}

/** The costs kept for `at`, of any architecture. */
const costsAt = (prior: ForecastPrior, at: CostAt): RunCost[] =>
  prior.costs.filter(
    (c) =>
      c.pipeline === at.pipeline &&
      (c.scale === null || c.scale === at.scale) &&
      c.kind === at.kind &&
      c.gpus === at.gpus,
  )

/**
 * The cost of runs of `pipeline` at `scale` on `gpus` GPUs of `kind` on `architecture`: one of that architecture, else
 * one that does not tell architectures apart (null); none where neither was measured (a v2.0 run on a kind measured on
 * v1.0 only has no prior: the paths cost too differently to price one by the other).
 */
export function runCostOf(prior: ForecastPrior, at: CostAt & { architecture: Architecture | null }): RunCost | null {
  const of = costsAt(prior, at)
  return (
    of.find((c) => c.architecture !== null && c.architecture === at.architecture) ??
    of.find((c) => c.architecture === null) ??
    null
  )
}

/** The architectures kept for `at` (what a run of another is told); null: a cost that tells none apart. */
export const priorArchitectures = (prior: ForecastPrior, at: CostAt): (Architecture | null)[] => [
  ...new Set(costsAt(prior, at).map((c) => c.architecture)),
]

/** The kinds a pipeline at a scale has a prior for (what an unknown kind is told). */
export const priorKinds = (prior: ForecastPrior, pipeline: string, scale: string): string[] => [
  ...new Set(
    prior.costs.filter((c) => c.pipeline === pipeline && (c.scale === null || c.scale === scale)).map((c) => c.kind),
  ),
]

/**
 * The mean record length (bp) of a length distribution: a uniform's midpoint; a log-normal's median x exp(sigma^2 / 2)
 * (its truncation to [min, max] ignored: the presets' cut well under 1% of the mass); an empirical one's bin midpoints.
 */
export function meanLengthBp(d: LengthDistribution): number {
  if (d.kind === 'uniform') return (d.min + d.max) / 2
  if (d.kind === 'lognormal') return Math.min(d.max, Math.max(d.min, d.median * Math.exp(d.sigma ** 2 / 2)))
  const { edges, counts } = d.histogram
  const total = counts.reduce((a, c) => a + c, 0)
  return counts.reduce((a, c, i) => a + (c * (edges[i]! + edges[i + 1]!)) / 2, 0) / total
}

export const presetMeanLengthBp = (preset: PresetName): number => meanLengthBp(PRESETS[preset].lengths)

/** Items a kilobase makes at `meanLengthBp`: the nearest measured lengths, interpolated (clamped at the ends). */
export function itemsPerKbAt(perFile: z.infer<typeof PerFile>, length: number): number {
  const points = perFile.itemsPerKb.toSorted((a, b) => a.meanLengthBp - b.meanLengthBp)
  const after = points.findIndex((p) => p.meanLengthBp >= length)
  if (after <= 0) return points[after === 0 ? 0 : points.length - 1]!.itemsPerKb
  const [a, b] = [points[after - 1]!, points[after]!]
  return a.itemsPerKb + ((b.itemsPerKb - a.itemsPerKb) * (length - a.meanLengthBp)) / (b.meanLengthBp - a.meanLengthBp)
}

/** One planned run's size: records of a mean length. */
export interface RunSize {
  records: number
  meanLengthBp: number
}

/** ms one run of `size` costs by `cost` (see the file's comment); files counted by `perFile` where the cost builds per file. */
export function runCostMs(cost: RunCost, perFile: z.infer<typeof PerFile> | null, size: RunSize): number {
  const kb = (size.records * size.meanLengthBp) / 1000
  const files =
    cost.buildPerFileMs !== null && perFile
      ? Math.max(1, Math.ceil((kb * itemsPerKbAt(perFile, size.meanLengthBp)) / perFile.itemsPerFile))
      : 1
  return cost.startMs + cost.perKbMs * kb + (cost.buildPerFileMs ?? 0) * (files - 1)
}
