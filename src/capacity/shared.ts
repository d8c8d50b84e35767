/**
 * Parts every configuration does alike: the stages that run on the CPU before and after the GPU stages (chunking,
 * translation, file splitting, merging, prediction, consensus) do the same work on 1 GPU as on k. Their lines are
 * fitted once over the runs of every configuration measured together and shared by each configuration's model: twice
 * the runs for their per-sequence cost, and a comparison of k GPUs with 1 no longer reads their run-to-run noise as a
 * difference between the configurations (draw b of the shared lines is the same in both models, so it cancels). On a
 * 2 x H100 host the 2-GPU fit alone read Six-Frame Translation at 0.30 ms/sequence from three noisy 4,000-record runs
 * where 20,000-record runs measured 0.20-0.24: the 20,000-record projection was 9% high.
 *
 * A part is shared only while the configurations' own fits agree (their per-sequence CIs overlap); one that does
 * depend on the GPU count stays each configuration's own, and the check says so.
 */
import { createRandomSource, estimateFrom, fitSizeModel, type SizeEstimate, type SizeModel } from '../measure/index.ts'
import { type CapacityRun, commonSeries, OUTSIDE_STAGES, WALL } from './runs.ts'

export interface SharedPartCheck {
  name: string
  shared: boolean
  /** The shared fit's per-sequence cost, and each configuration's own. */
  pooledMsPerSequence: SizeEstimate | null
  own: { label: string; msPerSequence: SizeEstimate }[]
  why: string
}

export interface SharedParts {
  /** The fit over every configuration's runs; null when there is nothing to share. */
  model: SizeModel | null
  series: string[]
  checks: SharedPartCheck[]
}

const SPLIT = /^(steady|pre|startup|work|busy): /

/**
 * Parts that run on the CPU whatever the GPU count: stages that are neither GPU stages nor split by GPU work, and of a
 * CPU stage split by its own progress (a tqdm bar: capacity/rates.ts) its steady part. Its `pre` part stays each
 * configuration's own: a start-up part is held constant or not by each configuration's own check (capacity/parts.ts),
 * which a pooled line would override.
 */
export function cpuStageParts(series: readonly string[], gpuStages: readonly string[]): string[] {
  const stages = series.filter((s) => s !== WALL && s !== OUTSIDE_STAGES && !SPLIT.test(s) && !gpuStages.includes(s))
  return stages.flatMap((s) => {
    if (series.includes(`steady: ${s}`) && series.includes(`pre: ${s}`)) return [`steady: ${s}`]
    return series.some((x) => SPLIT.test(x) && x.endsWith(`: ${s}`)) ? [] : [s]
  })
}

const overlap = (a: SizeEstimate, b: SizeEstimate) =>
  a.ci === null || b.ci === null || (a.ci.low <= b.ci.high && b.ci.low <= a.ci.high)

const slopeOf = (model: SizeModel, series: string) => estimateFrom([model], (line) => line(series).perUnit)

/**
 * Fits the CPU-stage parts over the runs of every configuration (each a list of completed runs), and says which of
 * them the configurations share. Needs two configurations, and two sizes with two runs each in every one.
 */
export function sharedParts(
  configs: readonly { label: string; runs: readonly CapacityRun[] }[],
  gpuStages: readonly string[],
  seed: string,
): SharedParts {
  const fittable = configs.filter((c) => new Set(c.runs.map((r) => r.size)).size >= 2)
  if (fittable.length < 2) return { model: null, series: [], checks: [] }
  const all = fittable.flatMap((c) => c.runs)
  const candidates = cpuStageParts(commonSeries(all), gpuStages)
  if (candidates.length === 0) return { model: null, series: [], checks: [] }
  const fitOf = (runs: readonly CapacityRun[]) =>
    fitSizeModel(runs, { series: candidates, nonNegative: true, random: createRandomSource(seed) })
  const pooled = fitOf(all)
  if (!pooled.draws) return { model: null, series: [], checks: [] }
  const own = fittable.map((c) => ({ label: c.label, model: fitOf(c.runs) }))
  const checks = candidates.map((name): SharedPartCheck => {
    const mine = own.map((o) => ({ label: o.label, msPerSequence: slopeOf(o.model, name) }))
    const agree = mine.every((a) => mine.every((b) => overlap(a.msPerSequence, b.msPerSequence)))
    return {
      name,
      shared: agree,
      pooledMsPerSequence: slopeOf(pooled, name),
      own: mine,
      why: agree
        ? `fitted over the runs of ${fittable.length} configurations (their own per-sequence CIs overlap)`
        : 'the configurations disagree (per-sequence CIs apart): each keeps its own fit',
    }
  })
  return { model: pooled, series: checks.filter((c) => c.shared).map((c) => c.name), checks }
}

/** `model` with the shared series' fits and draws taken from the pooled fit (same draw count: same index b). */
export function withSharedParts(model: SizeModel, shared: SharedParts): SizeModel {
  const pooled = shared.model
  if (!pooled?.draws || !model.draws || shared.series.length === 0 || pooled.drawCount !== model.drawCount) return model
  const fits = { ...model.fits }
  const draws = { ...model.draws }
  for (const s of shared.series) {
    if (!(s in fits)) continue
    fits[s] = pooled.fits[s]!
    draws[s] = pooled.draws[s]!
  }
  return { ...model, fits, draws }
}
