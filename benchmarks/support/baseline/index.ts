/**
 * A bench run judged against this machine (mode.ts, store.ts, verdict.ts): the one entry the benches use.
 * - No baseline of this machine for this bench: the run passes and is saved as the baseline's first run. A machine
 *   this checkout has not seen never reads FAILED.
 * - A baseline: the run is judged against it (verdict.ts); while it holds fewer than BASELINE_RUNS runs, a passing run
 *   joins it, so that its spread is measured.
 * - VIRNUCPRO_BENCH_SAVE_BASELINE=1: the run starts a new baseline, replacing the old one.
 * - A planted slowdown is judged like any run, and never saved or joined.
 */
import os from 'node:os'
import { isAbsolute, relative } from 'node:path'
import { readGitState } from '../../../src/results/git-state.ts'
import { THIS_CHECKOUT } from '../against/checkout.ts'
import { plantedSlowdownPct } from '../planted-slowdown.ts'
import { describeMachine, type MachineKey, thisMachine } from './machine.ts'
import { baselineMode } from './mode.ts'
import { type Baseline, type BaselineRun, baselinePath, baselineRoot, loadBaseline, saveBaseline } from './store.ts'
import {
  BASELINE_RUNS,
  type BaselineVerdict,
  CONFIRM_EFFECT,
  judgeAgainstBaseline,
  type PairedCosts,
} from './verdict.ts'

export interface MeasuredRun extends PairedCosts {
  judgeOn: 'cpu' | 'wall'
}

export interface MachineJudgement {
  /** What this run did to the baseline. */
  baseline: 'saved' | 'replaced' | 'joined' | 'kept' | 'not-saved'
  /** Null when there was nothing to judge against (a first run, a new baseline). */
  verdict: BaselineVerdict | null
  path: string
  /** Runs in the baseline after this run. */
  runs: number
  /** One line for the bench's annotation. */
  message: string
}

export interface JudgeOptions {
  env?: NodeJS.ProcessEnv
  machine?: MachineKey
  /** The commit this run measured, `+dirty` with changes; looked up in this checkout when not given. */
  revision?: string | null
  now?: () => Date
}

let checkoutRevision: Promise<string | null> | undefined
function revisionOfThisCheckout(): Promise<string | null> {
  checkoutRevision ??= readGitState(THIS_CHECKOUT).then((git) =>
    git ? `${git.commit.slice(0, 12)}${git.dirty ? '+dirty' : ''}` : null,
  )
  return checkoutRevision
}

const times = (x: number) => `${x.toFixed(2)}x`

function describeVerdict(v: BaselineVerdict, judgeOn: 'cpu' | 'wall'): string {
  const cost = `${judgeOn} cost ${times(v.cost.shift)}`
  const ratio = `ratio to its calibration ${times(v.ratio.shift)}`
  const [first, second] = v.judgedBy === 'ratio' ? [ratio, cost] : [cost, ratio]
  const runs = `this machine's baseline of ${v.runs} run${v.runs === 1 ? '' : 's'}`
  const rule =
    v.judgedBy === 'both'
      ? `both must pass ${times(v.limit)} until it holds ${BASELINE_RUNS} runs`
      : `limit ${times(v.limit)}${v.limit > 1.3 ? ` (its runs here spread too far to catch a 30% slowdown)` : ''}`
  const alone =
    v.judgedBy !== 'both' && v.shift > v.limit && !v.confirmed
      ? ` (the ${v.judgedBy} moved alone: slower code moves both figures, by more than ${times(1 + CONFIRM_EFFECT)})`
      : ''
  const verdict = v.verdict === 'fail' ? 'FAIL, slower than its baseline' : `pass${alone}`
  return `${first} (${second}) against ${runs}, ${rule}: ${verdict}`
}

/** The path as given when outside the working directory, else relative to it. */
function shownPath(path: string): string {
  const shown = relative(process.cwd(), path)
  return shown && !shown.startsWith('..') && !isAbsolute(shown) ? shown : path
}

/**
 * Judges one bench's run against this machine's baseline and saves or extends the baseline as the mode says.
 * @throws BaselineFileError when the baseline file exists but cannot be used; RangeError for a bad mode variable or
 *   costs; Error naming the file when it cannot be written
 */
export async function judgeOnThisMachine(
  bench: string,
  run: MeasuredRun,
  options: JudgeOptions = {},
): Promise<MachineJudgement> {
  const env = options.env ?? process.env
  const mode = baselineMode(env)
  const planted = plantedSlowdownPct(env) > 0
  const machine = options.machine ?? thisMachine()
  const path = baselinePath(baselineRoot(env), machine, bench)
  const shown = shownPath(path)
  const revision = options.revision === undefined ? await revisionOfThisCheckout() : options.revision
  const thisRun: BaselineRun = {
    savedAt: (options.now?.() ?? new Date()).toISOString(),
    revision,
    loadAverage: os.loadavg()[0]!,
    judgeOn: run.judgeOn,
    subjectCosts: [...run.subjectCosts],
    calibrationCosts: [...run.calibrationCosts],
  }
  const startNew = async (state: 'saved' | 'replaced', why: string): Promise<MachineJudgement> => {
    if (planted)
      return {
        baseline: 'not-saved',
        verdict: null,
        path,
        runs: 0,
        message: `${why}: passed; a planted run saves no baseline`,
      }
    const fresh: Baseline = { format: 1, machine, bench, runs: [thisRun] }
    await saveBaseline(path, fresh)
    return {
      baseline: state,
      verdict: null,
      path,
      runs: 1,
      message: `${why}: passed, and saved this run as its baseline (${shown}, 1 of ${BASELINE_RUNS} runs; the next runs are judged against it)`,
    }
  }
  if (mode === 'save') return startNew('replaced', `a new baseline of this machine (${describeMachine(machine)})`)
  const baseline = await loadBaseline(path, machine, bench)
  if (!baseline) return startNew('saved', `no baseline of this machine (${describeMachine(machine)}) yet`)
  const other = baseline.runs.find((r) => r.judgeOn !== run.judgeOn)
  if (other)
    throw new Error(
      `bench baseline ${path}: saved when the bench judged ${other.judgeOn} time, it now judges ${run.judgeOn} time; start a new baseline with VIRNUCPRO_BENCH_SAVE_BASELINE=1`,
    )
  const verdict = judgeAgainstBaseline(baseline.runs, run)
  const loads = baseline.runs.map((r) => r.loadAverage)
  // A verdict on a busy machine is less sure than one on a quiet one: the loads say which this was.
  const load = `load ${thisRun.loadAverage.toFixed(1)} (its runs ${Math.min(...loads).toFixed(1)}-${Math.max(...loads).toFixed(1)})`
  const message = `${describeVerdict(verdict, run.judgeOn)}; ${load}`
  if (verdict.verdict === 'pass' && !planted && baseline.runs.length < BASELINE_RUNS) {
    const grown: Baseline = { ...baseline, runs: [...baseline.runs, thisRun] }
    await saveBaseline(path, grown)
    return {
      baseline: 'joined',
      verdict,
      path,
      runs: grown.runs.length,
      message: `${message}; joined it (${grown.runs.length} of ${BASELINE_RUNS} runs)`,
    }
  }
  return { baseline: 'kept', verdict, path, runs: baseline.runs.length, message }
}
