/**
 * The verdict of one bench run against this machine's baseline: was the code under test slower than in the
 * baseline's runs, by more than those runs differ from each other?
 *
 * Each run is summed up in two figures: the median over its pairs of subject cost / calibration cost (the ratio,
 * which the machine's speed and load move little, but the calibration's own noise does), and the median subject cost
 * (which the calibration's noise does not move, but the machine's state does). Which one moves more between runs
 * differs from bench to bench (four quiet runs of a 2-core machine: inspection's ratio 1.61-1.96, its CPU time
 * 818-829 ms; runTarget's ratio 1.71-1.92, its wall time 8.1-16.1 ms), so the baseline's own runs choose: the figure
 * whose logarithm spreads less between them judges.
 *
 * The judged figure's shift is this run's value against the geometric mean of the baseline's k runs. The run fails
 * when that shift is above
 * - 1 + MIN_EFFECT, the smallest slowdown worth a red bench, and
 * - the one-sided prediction bound of one more run of the baseline's distribution at level 1 - ALPHA (on the log
 *   scale: Student's t with k - 1 degrees of freedom times the runs' standard deviation times sqrt(1 + 1/k)), so a
 *   bench whose runs spread far has a wider limit, and five runs that agree by chance do not narrow it much;
 * and when the other figure moved too, by more than CONFIRM_EFFECT: slower code moves both, while a figure that looked
 * steady over a few runs moves alone by chance (runTarget's wall time read 1.29x here with its ratio at 0.96x and
 * nothing changed).
 * A run of the baseline's distribution (normal on the log scale) therefore fails at most ALPHA of the time, whatever
 * the spread; a 30% slowdown fails whenever 1.3 times the run's figure clears the limit (nearly always against runs
 * that spread by a few percent: test/benchmarks/baseline/verdict.test.ts draws both). A limit above 1.3 is said in
 * the bench's message: that bench catches only larger slowdowns here.
 * Until the baseline holds BASELINE_RUNS runs, its spread is not known: a run fails only when both figures moved past
 * a wide limit (UNKNOWN_SPREAD at the same level), and a passing run joins the baseline.
 */
import { tQuantile } from '../../../src/measure/distributions.ts'
import { median } from '../../../src/measure/estimators.ts'
import { toSorted } from '../../../src/measure/samples.ts'
import { summarizeRatios } from '../ratio.ts'

/** The smallest slowdown that fails a bench: 15%. */
export const MIN_EFFECT = 0.15
/** How far the figure that does not judge must have moved too for a run to fail: 7.5%. */
export const CONFIRM_EFFECT = MIN_EFFECT / 2
/** A run of the baseline's own distribution fails at most this often (one-sided prediction bound): 1%. */
export const ALPHA = 0.01
/** Runs a baseline collects (the first run saves it, passing runs join it) before its spread sets the limit. */
export const BASELINE_RUNS = 5
/** The standard deviation between runs (of a figure's log) assumed while the baseline is shorter: 10%. */
export const UNKNOWN_SPREAD = 0.1
/** The standard normal's 1 - ALPHA quantile, for the limit while the spread is unknown. */
const Z = 2.3263478740408408

export interface PairedCosts {
  /** The subject's judged cost per pair (ms of CPU or wall time). */
  subjectCosts: readonly number[]
  /** The calibration's judged cost per pair, the same unit. */
  calibrationCosts: readonly number[]
}

export interface RunFigures {
  /** Median over the pairs of subject cost / calibration cost. */
  ratio: number
  /** Median subject cost, ms. */
  cost: number
}

export type Figure = keyof RunFigures

export interface FigureShift {
  /** This run's figure / the geometric mean of the baseline runs' figures (1.3: 30% slower). */
  shift: number
  /** Standard deviation of the log of the figure between the baseline's runs; null with one run. */
  spread: number | null
}

export interface BaselineVerdict {
  verdict: 'pass' | 'fail'
  /** The figure that judged; 'both' while the baseline is too short to tell which is steadier. */
  judgedBy: Figure | 'both'
  /** The judged shift (with 'both', the smaller of the two). */
  shift: number
  /** The largest shift that passes. */
  limit: number
  /** Whether the other figure moved past 1 + CONFIRM_EFFECT too (with 'both': whether both passed the limit). */
  confirmed: boolean
  ratio: FigureShift
  cost: FigureShift
  /** Runs in the baseline. */
  runs: number
}

/** @throws RangeError as pairRatios does (arms of different lengths, none, a cost that is not finite and > 0) */
export function runFigures(run: PairedCosts): RunFigures {
  const { ratio } = summarizeRatios(run.subjectCosts, run.calibrationCosts)
  return { ratio, cost: median(toSorted(run.subjectCosts)) }
}

function logMeanAndSpread(values: readonly number[]): { mean: number; spread: number | null } {
  const logs = values.map(Math.log)
  const mean = logs.reduce((sum, x) => sum + x, 0) / logs.length
  if (logs.length < 2) return { mean, spread: null }
  return { mean, spread: Math.sqrt(logs.reduce((sum, x) => sum + (x - mean) ** 2, 0) / (logs.length - 1)) }
}

/**
 * The largest shift a run may show against `runs` baseline runs whose figure's log spreads by `spread` (its
 * standard deviation); with fewer than BASELINE_RUNS runs or no spread, the provisional limit of UNKNOWN_SPREAD.
 */
export function shiftLimit(runs: number, spread: number | null): number {
  const known = runs >= BASELINE_RUNS && spread !== null
  const quantile = known ? tQuantile(1 - ALPHA, runs - 1) : Z
  const bound = quantile * (known ? spread : UNKNOWN_SPREAD) * Math.sqrt(1 + 1 / runs)
  return Math.max(1 + MIN_EFFECT, Math.exp(bound))
}

/**
 * Judges `run` against the baseline's runs of the same bench on this machine.
 * @throws RangeError as runFigures does, or when the baseline holds no run
 */
export function judgeAgainstBaseline(baseline: readonly PairedCosts[], run: PairedCosts): BaselineVerdict {
  if (baseline.length === 0) throw new RangeError('judgeAgainstBaseline: the baseline holds no run')
  const before = baseline.map(runFigures)
  const now = runFigures(run)
  const shiftOf = (figure: Figure): FigureShift => {
    const { mean, spread } = logMeanAndSpread(before.map((f) => f[figure]))
    return { shift: Math.exp(Math.log(now[figure]) - mean), spread }
  }
  const ratio = shiftOf('ratio')
  const cost = shiftOf('cost')
  const runs = baseline.length
  if (runs < BASELINE_RUNS) {
    const limit = shiftLimit(runs, null)
    const shift = Math.min(ratio.shift, cost.shift)
    return {
      verdict: shift > limit ? 'fail' : 'pass',
      judgedBy: 'both',
      shift,
      limit,
      confirmed: shift > limit,
      ratio,
      cost,
      runs,
    }
  }
  const judgedBy: Figure = cost.spread! < ratio.spread! ? 'cost' : 'ratio'
  const [judged, other] = judgedBy === 'ratio' ? [ratio, cost] : [cost, ratio]
  const limit = shiftLimit(runs, judged.spread)
  const confirmed = other.shift > 1 + CONFIRM_EFFECT
  const verdict = judged.shift > limit && confirmed ? 'fail' : 'pass'
  return { verdict, judgedBy, shift: judged.shift, limit, confirmed, ratio, cost, runs }
}
