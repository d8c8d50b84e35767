/**
 * The parts a configuration's wall time is the sum of, and which of them are start-up. Every logged stage is a part,
 * and so is the time outside every stage (interpreter start, imports, exit). A stage is split where the runs allow, in
 * this order:
 * - by its own progress lines (capacity/rates.ts): its `steady` part (the span of its batch lines inside every run,
 *   which start-up noise does not enter) and its `pre` part, what the span does not hold (model build, work before the
 *   first batch, drain);
 * - by the GPU's first work, where the monitor saw it: `startup` before it, `work` after;
 * - else the stage as one part.
 *
 * Start-up parts (outside stages, `pre`, `startup`) are held constant over sizes while the data agree. Why: on an H200
 * their run-to-run spread (0.3 s for process start-up) was larger than that of all the work together at 4,000
 * sequences, and a line fitted through it turns noise into a slope that 6,000,000 sequences multiply (+-12% on the 6 M
 * projection from 1,000 and 4,000 records, against +-6% with start-up held constant). Each is also fitted as a line, and
 * where that slope's CI excludes 0 and would move the production-size projection by more than CONSTANT_PART_TOLERANCE,
 * it is a line after all (`checkConstants` says which and why): a start-up that grows with the input (VirNucPro's
 * ESM-2 stage works through its whole input before its first batch) is a line.
 *
 * A stage that builds its model once per file (VirNucPro's v1 ESM-2, capacity/builds.ts) has one part more, its
 * `builds`: the cost of a build, held constant over sizes, times the files a size makes (a step, not a line), taken
 * out of the `pre` part that held it.
 */
import {
  estimateFrom,
  type Line,
  type LineOf,
  type LineSelector,
  type SizeEstimate,
  type SizeModel,
  valueAt,
} from '../measure/index.ts'
import { buildsSeries, OUTSIDE_STAGES, preSeries, startupSeries, steadySeries, WALL, workSeries } from './runs.ts'

/** A start-up part whose slope would move the production projection by more than this is fitted as a line. */
export const CONSTANT_PART_TOLERANCE = 0.01

export interface ConstantPartCheck {
  name: string
  /** Its slope when fitted as a line (ms per sequence), with CI. */
  slopeMsPerSequence: SizeEstimate
  heldConstant: boolean
  why: string
}

const isDerived = (s: string) => s === WALL || s.startsWith('busy: ')

/** How one stage is split into parts, given the series every run has (its builds, where it has them, last). */
function stageParts(stage: string, series: readonly string[]): string[] {
  const builds = series.includes(buildsSeries(stage)) ? [buildsSeries(stage)] : []
  if (series.includes(steadySeries(stage)) && series.includes(preSeries(stage)))
    return [preSeries(stage), steadySeries(stage), ...builds]
  if (series.includes(startupSeries(stage)) && series.includes(workSeries(stage)))
    return [startupSeries(stage), workSeries(stage), ...builds]
  return [stage, ...builds]
}

const splitPrefix = /^(steady|pre|startup|work|builds): /

/** The stages (and the time outside every stage) whose parts the wall time is the sum of. */
export const stagesOf = (series: readonly string[]): string[] =>
  series.filter((s) => !isDerived(s) && !splitPrefix.test(s))

/** The parts the wall time is the sum of, from the series every run has. */
export function partsOf(series: readonly string[]): string[] {
  const stages = series.filter((s) => !isDerived(s) && !splitPrefix.test(s))
  return stages.flatMap((s) => (s === OUTSIDE_STAGES ? [s] : stageParts(s, series)))
}

export const isStartUp = (part: string) =>
  part === OUTSIDE_STAGES || part.startsWith('startup: ') || part.startsWith('pre: ')

/**
 * How many files a stage makes at a size: measured where a run was (its own count), else the items a sequence carries
 * at the largest measured size over the files' size, rounded up (a file is a file however few items it holds).
 */
export interface FileCount {
  itemsPerSequence: number
  itemsPerFile: number
  /** Files by measured size (sequences). */
  measured: ReadonlyMap<number, number>
}

/** A size model whose `builds` parts (keyed by series) count files (capacity/builds.ts); without: every part a line. */
export type CapacityModel = SizeModel & { fileCounts?: Readonly<Record<string, FileCount>> }

export const filesAt = (f: FileCount, size: number): number =>
  f.measured.get(size) ?? Math.max(1, Math.ceil((f.itemsPerSequence * size) / f.itemsPerFile - 1e-9))

/**
 * A part's time as a line over sizes. A `builds` part (a build's cost, held constant) as the line its steps run along
 * (files = items / file size + 1/2, a file rounded up on average): for what needs a line (the wall's per-sequence
 * cost, a break-even size); its value at a size is partValue's.
 */
export function partLine(line: LineOf, part: string, model?: CapacityModel): Line {
  const l = line(part)
  const files = model?.fileCounts?.[part]
  if (!files) return l
  return { fixed: l.fixed / 2, perUnit: (l.fixed * files.itemsPerSequence) / files.itemsPerFile }
}

/** A part's time at `size` on one draw's lines: a line's value, or a build's cost times the files the size makes. */
export function partValue(model: CapacityModel, line: LineOf, part: string, size: number): number {
  const files = model.fileCounts?.[part]
  return files ? line(part).fixed * filesAt(files, size) : valueAt(line(part), size)
}

/** The sum of parts' lines. */
export const sumOfParts =
  (parts: readonly string[], model?: CapacityModel): LineSelector =>
  (line) =>
    parts.reduce(
      (a, p) => {
        const l = partLine(line, p, model)
        return { fixed: a.fixed + l.fixed, perUnit: a.perUnit + l.perUnit }
      },
      { fixed: 0, perUnit: 0 },
    )

/** The wall time as the sum of `parts`, as a line. */
export const wallOf = (parts: readonly string[], model?: CapacityModel): LineSelector => sumOfParts(parts, model)

/** The sum of `parts` at a size on one draw's lines (builds as steps). */
export const valueOfParts =
  (model: CapacityModel, parts: readonly string[]) =>
  (line: LineOf, size: number): number =>
    parts.reduce((a, p) => a + partValue(model, line, p, size), 0)

/** The parts of a stage (however it is split), so its time agrees with the wall time's. */
export const partsOfStage = (model: SizeModel, stage: string): string[] => stageParts(stage, model.series)

/** A stage's time as its parts say, as a line. */
export function stageOf(model: CapacityModel, stage: string): LineSelector {
  return sumOfParts(stageParts(stage, model.series), model)
}

/**
 * Which start-up parts stay constant: those whose own slope is nil or too small to matter at `production`. The effect
 * is measured against the production-size wall time of the model with every start-up part a line (never negative:
 * the lines are non-negative), so a part can never be held constant because the figure it is compared with is wrong.
 */
export function checkConstants(
  lines: CapacityModel,
  parts: readonly string[],
  production: number,
): ConstantPartCheck[] {
  const wallAtProduction = valueOfParts(lines, parts)((s) => lines.fits[s]!, production)
  return parts.filter(isStartUp).map((name): ConstantPartCheck => {
    const slope = estimateFrom([lines], (line) => line(name).perUnit)
    const excludesZero = slope.ci !== null && (slope.ci.low > 0 || slope.ci.high < 0)
    const effect = wallAtProduction > 0 ? Math.abs(slope.estimate * production) / wallAtProduction : Infinity
    const heldConstant = !(excludesZero && effect > CONSTANT_PART_TOLERANCE)
    const at = production.toLocaleString('en-US')
    const why = heldConstant
      ? excludesZero
        ? `its slope would move the ${at}-sequence projection by ${(effect * 100).toFixed(2)}% only`
        : 'its slope CI includes 0'
      : `its slope (CI excludes 0) would move the ${at}-sequence projection by ${(effect * 100).toFixed(1)}%: fitted as a line`
    return { name, slopeMsPerSequence: slope, heldConstant, why }
  })
}
