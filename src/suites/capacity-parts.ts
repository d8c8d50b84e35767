/**
 * The parts a configuration's wall time is the sum of, and which of them are start-up. Every logged stage is a part
 * (a GPU stage split into its start-up before the GPU's first work and its work after it, where the monitor saw the
 * onset), and so is the time outside every stage (interpreter start, imports, exit).
 *
 * Start-up parts are held constant over sizes, while the data agree. Why: on an H200 their run-to-run spread (0.3 s
 * for process start-up) was larger than that of all the work together at 4,000 sequences, and a line fitted through
 * it turns noise into a slope that 6,000,000 sequences multiply (+-12% on the 6 M projection from 1,000 and 4,000
 * records, against +-6% with start-up held constant). Each start-up part is also fitted as a line, and where that
 * slope's CI excludes 0 and would move the production-size projection by more than CONSTANT_PART_TOLERANCE, it is a
 * line after all (`checkConstants` says which and why).
 */
import {
  estimateFrom,
  type LineSelector,
  type SizeEstimate,
  type SizeModel,
  sumOfSeries,
  valueAt,
} from '../measure/index.ts'
import { OUTSIDE_STAGES, startupSeries, WALL, workSeries } from './capacity-runs.ts'

/** A start-up part whose slope would move the production projection by more than this is fitted as a line. */
export const CONSTANT_PART_TOLERANCE = 0.01

export interface ConstantPartCheck {
  name: string
  /** Its slope when fitted as a line (ms per sequence), with CI. */
  slopeMsPerSequence: SizeEstimate
  heldConstant: boolean
  why: string
}

/** The parts the wall time is the sum of, from the series every run has. */
export function partsOf(series: readonly string[]): string[] {
  return series.filter((s) => {
    if (s === WALL || s.startsWith('busy: ')) return false
    if (s.startsWith('startup: ') || s.startsWith('work: ')) return true
    return !(series.includes(startupSeries(s)) && series.includes(workSeries(s)))
  })
}

export const isStartUp = (part: string) => part === OUTSIDE_STAGES || part.startsWith('startup: ')

/** The wall time as the sum of `parts`. */
export const wallOf = (parts: readonly string[]): LineSelector => sumOfSeries(parts)

/** A stage's time as its parts say (start-up and work where it is split), so it agrees with the wall time's. */
export function stageOf(model: SizeModel, stage: string): LineSelector {
  const split = model.series.includes(startupSeries(stage)) && model.series.includes(workSeries(stage))
  return split ? sumOfSeries([startupSeries(stage), workSeries(stage)]) : sumOfSeries([stage])
}

/** Which start-up parts stay constant: those whose own slope is nil or too small to matter at `production`. */
export function checkConstants(lines: SizeModel, held: SizeModel, parts: readonly string[], production: number) {
  const wallAtProduction = valueAt(
    wallOf(parts)((s) => held.fits[s]!),
    production,
  )
  return parts.filter(isStartUp).map((name): ConstantPartCheck => {
    const slope = estimateFrom([lines], (line) => line(name).perUnit)
    const excludesZero = slope.ci !== null && (slope.ci.low > 0 || slope.ci.high < 0)
    const effect = Math.abs(slope.estimate * production) / wallAtProduction
    const heldConstant = !(excludesZero && effect > CONSTANT_PART_TOLERANCE)
    const why = heldConstant
      ? excludesZero
        ? `its slope would move the ${production.toLocaleString('en-US')}-sequence projection by ${(effect * 100).toFixed(2)}% only`
        : 'its slope CI includes 0'
      : `its slope (CI excludes 0) would move the ${production.toLocaleString('en-US')}-sequence projection by ${(effect * 100).toFixed(1)}%: fitted as a line`
    return { name, slopeMsPerSequence: slope, heldConstant, why }
  })
}
