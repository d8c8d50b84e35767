/**
 * Whether a configuration's runs support a projection at all, before any projected verdict is read from them. The
 * model states its invariants and checks them on its own fit:
 * - no part of the wall time negative, nor shrinking as the input grows (by construction: non-negative fits);
 * - the per-sequence cost resolved: its CI above 0 and no wider than +-MAX_PER_SEQUENCE_HALF_WIDTH of it (else it is
 *   lost in start-up noise, and a projection multiplies noise);
 * - each measured size reproduced: the model's CI at that size meets the CI of the runs' median there (else the parts
 *   disagree with the runs: a part that is not a line, a start-up held constant that grows). The runs' own CI counts
 *   because the model's narrows with every run while a median of 3 stays as far from the mean as the runs' skew puts
 *   it: on the CPU, runs of 2.68, 2.68 and 2.87 s against a model of 2.90 s [2.73, 3.05] read as a misfit where
 *   nothing was one (the next size's runs sat as far above it), and more runs would only have made that likelier;
 * - no projection below the measured wall time of a smaller size;
 * - at three sizes or more, the wall time a line over them (line-fit.ts's lack-of-fit test, p >= LINE_FIT_P): two sizes
 *   always fit one, so a per-sequence cost that grows with size shows only from a third on, and a line through it then
 *   projects production sizes low;
 * - no model build paid once per file that every measured size paid the same number of times while production pays it
 *   far more often, where the builds could not be counted as a part of their own (capacity/per-file.ts, builds.ts);
 *   that alone makes the projections lower bounds (`lowerBound`).
 * Where one fails, every projected verdict of the configuration is `inconclusive`, with the problems and the input
 * size to measure next; the measured-size verdicts stand.
 */
import { estimateFrom, type LineFitTest, lineLackOfFit, type SizeEstimate, type SizeModel } from '../measure/index.ts'
import { type CapacityModel, filesAt, partValue, valueOfParts } from './parts.ts'
import type { PerFileCheck } from './per-file.ts'
import { WALL } from './runs.ts'

/** A part's fixed and per-sequence figures (capacity/model.ts's PartFigures, as read here). */
interface PartFigures {
  name: string
  fixedMs: SizeEstimate
  msPerSequence: SizeEstimate
}

/** A per-sequence cost known no better than +-50% cannot carry a projection 1,000x beyond the measured size. */
export const MAX_PER_SEQUENCE_HALF_WIDTH = 0.5
/** A wall time whose lack-of-fit p-value is below this is not a line over the measured sizes. */
export const LINE_FIT_P = 0.01
/** The per-sequence half-width the suggested next size aims at. */
const NEXT_SIZE_HALF_WIDTH = 0.1

export interface ModelSupport {
  supported: boolean
  problems: string[]
  /** The input size (records) to measure next when the runs cannot support a projection; null when they can. */
  nextRecords: number | null
  /**
   * Each measured size: the model's wall time with CI against the runs' median with its CI (order statistic: [min, max]
   * for 3 runs), and whether the two meet.
   */
  reproduced: {
    sequences: number
    modelMs: SizeEstimate
    medianMs: number
    medianCi: { low: number; high: number } | null
    within: boolean
  }[]
  /** The lack-of-fit test of a line through the wall times (null below three sizes, where a line always fits). */
  lineFit: LineFitTest | null
  /**
   * Where a model built once per file is missing from the projection (capacity/per-file.ts): the records that make
   * enough files for it to show, which the sequential design measures first (capacity/bend.ts); else null.
   */
  filesRecords?: number | null
  /**
   * Whether every problem is a model built per file that the projection holds as paid once (capacity/per-file.ts):
   * the part it leaves out is a cost that only adds, so each projection (and its CI's low end) is a lower bound on
   * the production time, which can decide a time target's FAIL, never its PASS.
   */
  lowerBound?: boolean
  /**
   * Whether the one problem is the per-sequence cost's width: the model holds (every measured size reproduced, no part
   * negative, a line where tested) but is not precise, and its intervals say how imprecise. A decision may then be
   * read from them (capacity/decisions.ts: an interval wholly past its threshold is past it however wide).
   */
  precisionOnly?: boolean
}

export interface SupportInput {
  model: CapacityModel
  parts: readonly string[]
  wall: PartFigures
  sizes: readonly {
    sequences: number
    records: number
    medianWallMs: number
    /** The median's CI over the runs at this size; null with one run. */
    medianWallCi: { low: number; high: number } | null
  }[]
  at: readonly { sequences: number; wallMs: SizeEstimate }[]
  partFigures: readonly PartFigures[]
  recordsPerSequence: number
  /** Stages that build a model per file (capacity/per-file.ts); absent or empty: none. */
  perFile?: readonly PerFileCheck[]
}

const seconds = (ms: number) => `${(ms / 1000).toFixed(2)} s`
const roundUp2 = (n: number) => {
  const scale = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1)
  return Math.ceil(n / scale) * scale
}

function reproduced(input: SupportInput, wallAt: (size: number) => SizeEstimate) {
  return input.sizes.map((s) => {
    const modelMs = wallAt(s.sequences)
    const model = modelMs.ci ?? { low: modelMs.estimate, high: modelMs.estimate }
    const runs = s.medianWallCi ?? { low: s.medianWallMs, high: s.medianWallMs }
    // Neither has a spread: within 5%, as a model without draws is judged elsewhere.
    const within =
      modelMs.ci === null && s.medianWallCi === null
        ? Math.abs(modelMs.estimate - s.medianWallMs) <= 0.05 * s.medianWallMs
        : model.low <= runs.high && runs.low <= model.high
    return { sequences: s.sequences, modelMs, medianMs: s.medianWallMs, medianCi: s.medianWallCi, within }
  })
}

function perSequenceProblem(wall: PartFigures): { problem: string; halfWidth: number } | null {
  const e = wall.msPerSequence
  const halfWidth = e.ci && e.estimate > 0 ? (e.ci.high - e.ci.low) / 2 / e.estimate : Infinity
  if (e.ci === null) return null // no spread at all: the projected verdicts are inconclusive for that already
  if (e.estimate > 0 && e.ci.low > 0 && halfWidth <= MAX_PER_SEQUENCE_HALF_WIDTH) return null
  const shown = `${e.estimate.toFixed(4)} ms/sequence [${e.ci.low.toFixed(4)}, ${e.ci.high.toFixed(4)}]`
  return { problem: `the per-sequence cost is lost in start-up noise: ${shown}`, halfWidth }
}

function belowMeasured(input: SupportInput): string[] {
  // Measured sizes are the reproduction check's; a projection beyond them must not fall below any of them.
  const largest = Math.max(...input.sizes.map((s) => s.sequences))
  return input.at.flatMap((a) => {
    if (a.sequences <= largest) return []
    const smaller = input.sizes.filter((s) => s.sequences < a.sequences).map((s) => s.medianWallMs)
    const floor = smaller.length ? Math.max(...smaller) : 0
    return a.wallMs.estimate < floor
      ? [
          `the projection at ${Math.round(a.sequences).toLocaleString('en-US')} sequences (${seconds(a.wallMs.estimate)}) is below the wall time measured at a smaller size (${seconds(floor)})`,
        ]
      : []
  })
}

/** The lack-of-fit test of the wall time's line over the model's sizes, and the problem when it fails. */
function lineFitOf(model: CapacityModel): { test: LineFitTest | null; problem: string | null } {
  // The wall time less its builds per file (a step by design, capacity/builds.ts): what is meant to be a line.
  const builds = (g: SizeModel['groups'][number]) =>
    Object.entries(model.fileCounts ?? {}).reduce((a, [s, f]) => a + g.mean[s]! * filesAt(f, g.size), 0)
  const groups = model.groups.map((g) => ({
    size: g.size,
    runs: g.runs,
    mean: g.mean[WALL]! - builds(g),
    sd: g.sd[WALL]!,
  }))
  const test = groups.every((g) => g.mean > 0) ? lineLackOfFit(groups) : null
  if (!test || test.pValue >= LINE_FIT_P) return { test, problem: null }
  const ms = (x: number) => x.toFixed(3)
  const bend = test.upperSlope > test.lowerSlope ? 'grows' : 'falls'
  return {
    test,
    problem: `the wall time is not a line over the ${groups.length} measured sizes (lack-of-fit F = ${test.f.toFixed(1)} on ${test.df1} and ${test.df2} df, p = ${test.pValue.toPrecision(2)}): its cost per sequence ${bend} with size (${ms(test.lowerSlope)} ms/sequence between the two smallest, ${ms(test.upperSlope)} between the two largest), so a line ${bend === 'grows' ? 'projects production sizes low' : 'misprojects production sizes'}`,
  }
}

/**
 * Parts negative at the smallest measured size (the model speaks of no smaller one: a part's fixed term may be below 0
 * where its line crosses 0 under that size, size-model.ts's fitNonNegativeLine), or shrinking as the input grows.
 */
function negativeParts(parts: readonly PartFigures[], model: CapacityModel, smallest: number): string[] {
  return parts.flatMap((p) => {
    const atSmallest = estimateFrom([model], (line) => partValue(model, line, p.name, smallest))
    return [atSmallest, p.msPerSequence].some((e) => e.estimate < 0 || (e.ci !== null && e.ci.low < 0))
      ? [`part '${p.name}' is negative`]
      : []
  })
}

function nextSize(input: SupportInput, halfWidth: number | null): number {
  const [first, last] = [input.sizes[0]!, input.sizes.at(-1)!]
  const factor = halfWidth === null || !Number.isFinite(halfWidth) ? 10 : halfWidth / NEXT_SIZE_HALF_WIDTH
  const spread = (last.sequences - first.sequences) * factor
  const sequences = Math.min(100 * last.sequences, Math.max(2 * last.sequences, first.sequences + spread))
  return roundUp2(sequences * input.recordsPerSequence)
}

/** The model's support for projections, with its problems and the size to measure next. */
export function modelSupport(input: SupportInput): ModelSupport {
  const wall = valueOfParts(input.model, input.parts)
  const wallAt = (size: number) => estimateFrom([input.model], (line) => wall(line, size))
  const rows = reproduced(input, wallAt)
  const problems: string[] = []
  const perSequence = perSequenceProblem(input.wall)
  if (perSequence) problems.push(perSequence.problem)
  for (const r of rows.filter((r) => !r.within))
    problems.push(
      `the parts disagree with the runs at ${Math.round(r.sequences).toLocaleString('en-US')} sequences: the model gives ${seconds(r.modelMs.estimate)}${r.modelMs.ci ? ` [${seconds(r.modelMs.ci.low)}, ${seconds(r.modelMs.ci.high)}]` : ''}, the runs' median is ${seconds(r.medianMs)}${r.medianCi ? ` [${seconds(r.medianCi.low)}, ${seconds(r.medianCi.high)}]` : ''}`,
    )
  problems.push(
    ...belowMeasured(input),
    ...negativeParts(input.partFigures, input.model, Math.min(...input.sizes.map((s) => s.sequences))),
  )
  const lineFit = lineFitOf(input.model)
  if (lineFit.problem) problems.push(lineFit.problem)
  const others = problems.length
  const perFile = (input.perFile ?? []).filter((c) => c.problem !== null)
  problems.push(...perFile.map((c) => c.problem!))
  const supported = problems.length === 0
  // A size that makes enough files for the per-file steps to show, if that is more than the noise asks for.
  const filesNext = perFile.map((c) => roundUp2((c.sequencesToMeasure ?? 0) * input.recordsPerSequence))
  return {
    supported,
    problems,
    nextRecords: supported ? null : Math.max(nextSize(input, perSequence?.halfWidth ?? null), ...filesNext),
    reproduced: rows,
    lineFit: lineFit.test,
    filesRecords: filesNext.length > 0 ? Math.max(...filesNext) : null,
    lowerBound: others === 0 && perFile.length > 0,
    precisionOnly: perSequence !== null && problems.length === 1,
  }
}
