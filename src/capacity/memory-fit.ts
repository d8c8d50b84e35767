/**
 * One configuration's memory peaks as fixed + per-sequence lines over its measured sizes, through the same size model
 * as its times (src/measure/size-model.ts: CIs from draws of each size's runs), projected to the target sizes. Each
 * peak is its own series: the tree's host memory, its largest process's, and each GPU's memory used. Lines are held
 * non-negative (a peak neither is below 0 nor shrinks as the input grows); over three or more sizes the lack-of-fit
 * test says whether a line holds at all (line-fit.ts), since a peak that bends upwards is projected low by a line.
 */
import {
  estimateFrom,
  fitSizeModel,
  type LineFitTest,
  lineLackOfFit,
  projectSeries,
  type SizeEstimate,
  type SizeModel,
} from '../measure/index.ts'
import type { CapacityRun } from './runs.ts'

export const HOST_TREE = 'host: tree'
export const HOST_PROCESS = 'host: largest process'
export const gpuSeries = (gpu: number) => `gpu ${gpu}`

export interface MemorySeries {
  series: string
  /** What the peak is of: the host memory of the tree or of its largest process, or one GPU's memory. */
  of: 'host-tree' | 'host-process' | 'gpu'
  gpu: number | null
  fixedBytes: SizeEstimate
  bytesPerSequence: SizeEstimate
  /** The lack-of-fit test of a line over the sizes; null with fewer than 3 sizes or no spread. */
  lineFit: LineFitTest | null
  /**
   * The line's own error out of sample (issue 58), as the wall time's (capacity/misfit.ts): the largest size left out,
   * refitted from the others and projected there, its error a share of the growth projected from the next size down.
   * Every interval of `at` beyond the largest size carries that share of its growth. Null with fewer than 3 sizes.
   */
  misfit: { leftOut: number; growthErrorPct: number } | null
  at: { sequences: number; bytes: SizeEstimate }[]
}

export interface ConfigMemory {
  label: string
  gpuCount: number
  /** Runs with memory readings, and their distinct sizes (sequence-equivalents). */
  runs: number
  sizes: number[]
  /** Why the lines have no CI (size-model.ts ciProblem); null when they have one. */
  ciProblem: string | null
  series: MemorySeries[]
  /** Why no line could be fitted (no readings, one size); null when one was. */
  notFitted: string | null
}

type Sized = { size: number; values: Record<string, number> }

/** A run's peaks by series name; a peak it did not read is left out. */
function peaksOf(run: CapacityRun): Sized | null {
  const memory = run.memory
  if (!memory) return null
  const values: Record<string, number> = {}
  if (memory.hostTreeBytes !== null) values[HOST_TREE] = memory.hostTreeBytes
  if (memory.hostProcessBytes !== null) values[HOST_PROCESS] = memory.hostProcessBytes
  for (const g of memory.gpus) values[gpuSeries(g.gpu)] = g.peakMemUsedBytes
  return { size: run.size, values }
}

/**
 * Each series' misfit at the largest size: refitted without it, projected there, against its runs' mean; null with
 * fewer than three sizes (two fit the refit) or where the refit has nothing to say.
 */
function seriesMisfits(sized: readonly Sized[], names: readonly string[]): Map<string, MemorySeries['misfit']> {
  const sizes = [...new Set(sized.map((r) => r.size))].sort((a, b) => a - b)
  const out = new Map<string, MemorySeries['misfit']>()
  if (sizes.length < 3) return out
  const [leftOut, previous] = [sizes.at(-1)!, sizes.at(-2)!]
  const refit = fitSizeModel(
    sized.filter((r) => r.size !== leftOut),
    { series: names, nonNegative: true },
  )
  for (const series of names) {
    const at = sized.filter((r) => r.size === leftOut).map((r) => r.values[series]!)
    const measured = at.reduce((a, b) => a + b, 0) / at.length
    const predicted = projectSeries(refit, series, leftOut).estimate
    const from = projectSeries(refit, series, previous).estimate
    const step = Math.max(predicted - from, measured - from, 1e-9 * Math.max(1, Math.abs(from)))
    out.set(series, { leftOut, growthErrorPct: (100 * (measured - predicted)) / step })
  }
  return out
}

/** `e` beyond the largest size with `misfit`'s share of its growth over that size added to its interval. */
function widened(e: SizeEstimate, atLargest: number, misfit: MemorySeries['misfit']): SizeEstimate {
  if (!misfit || !e.ci) return e
  const extra = (Math.abs(misfit.growthErrorPct) / 100) * Math.max(0, e.estimate - atLargest)
  return {
    estimate: e.estimate,
    ci: {
      level: e.ci.level,
      low: Math.max(0, e.estimate - Math.hypot(e.estimate - e.ci.low, extra)),
      high: e.estimate + Math.hypot(e.ci.high - e.estimate, extra),
    },
  }
}

function seriesFigures(
  model: SizeModel,
  series: string,
  sizes: readonly number[],
  misfit: MemorySeries['misfit'],
): MemorySeries {
  const gpu = series.startsWith('gpu ') ? Number(series.slice(4)) : null
  const groups = model.groups.map((g) => ({ size: g.size, runs: g.runs, mean: g.mean[series]!, sd: g.sd[series]! }))
  const largest = Math.max(...model.groups.map((g) => g.size))
  const atLargest = projectSeries(model, series, largest).estimate
  return {
    series,
    of: series === HOST_TREE ? 'host-tree' : series === HOST_PROCESS ? 'host-process' : 'gpu',
    gpu,
    fixedBytes: estimateFrom([model], (line) => line(series).fixed),
    bytesPerSequence: estimateFrom([model], (line) => line(series).perUnit),
    // The test needs every size's mean above 0 (its noise is relative): a GPU no run touched has no line to test.
    lineFit: groups.every((g) => g.mean > 0) ? lineLackOfFit(groups) : null,
    misfit,
    at: sizes.map((sequences) => {
      const bytes = projectSeries(model, series, sequences)
      return { sequences, bytes: sequences > largest ? widened(bytes, atLargest, misfit) : bytes }
    }),
  }
}

/** The configuration's memory lines, projected to `sizes` (sequences). */
export function fitConfigMemory(
  config: { label: string; gpuCount: number; runs: readonly CapacityRun[] },
  sizes: readonly number[],
): ConfigMemory {
  const sized = config.runs.map(peaksOf).filter((r): r is Sized => r !== null)
  const measured = [...new Set(sized.map((r) => r.size))].sort((a, b) => a - b)
  const base = { label: config.label, gpuCount: config.gpuCount, runs: sized.length, sizes: measured }
  const names = Object.keys(sized[0]?.values ?? {}).filter((s) => sized.every((r) => s in r.values))
  const none = (why: string): ConfigMemory => ({ ...base, ciProblem: null, series: [], notFitted: why })
  if (names.length === 0) return none('no run has memory readings (no monitor, or recorded before host memory was)')
  if (measured.length < 2) return none(`memory read at ${measured.length} size(s); a line needs 2`)
  const model = fitSizeModel(sized, { series: names, nonNegative: true })
  const misfits = seriesMisfits(sized, names)
  return {
    ...base,
    ciProblem: model.ciProblem,
    series: names.map((s) => seriesFigures(model, s, sizes, misfits.get(s) ?? null)),
    notFitted: null,
  }
}
