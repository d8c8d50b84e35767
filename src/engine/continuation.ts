/**
 * Which run an invocation writes into: the one VIRNUCPRO_BENCH_RUN_ID pins; else the newest run of the results root
 * when it was interrupted (stopped by a signal, or killed: its writer gone quiet) and measured under the same key, so
 * that the same command run again continues where it stopped; else a new one. VIRNUCPRO_BENCH_FRESH=1 starts a new
 * run on purpose (beside a pinned ID it is refused: src/config/conflicts.ts). Every choice but a plain new run is said
 * in one line, a differing key with what differs, and so is every run passed over for a reason the user could not see:
 *
 * - Dated in the future. Run IDs are ordered by their date, which the clock of the node that started the run gave. A
 *   run dated more than a few minutes (run-candidates.ts FUTURE_TOLERANCE_MS) past this host's clock came from a
 *   clock that is ahead, and its date says nothing of when it ran against the others: it cannot be "the newest", so
 *   it never hides the run before it (a finished one once hid an interrupted one on every later call). The newest run
 *   dated up to now decides as above. Only when that one is no interrupted run is an interrupted run dated in the
 *   future continued (the newest such), since that is most likely the run the user stopped on the node whose clock is
 *   ahead and means to continue. Each run dated in the future is named in a line: its ID, how far ahead, and whether
 *   it was set aside (why, and how to continue it) or continued.
 * - A damaged state file (cut off, empty, of another form, unreadable). Without its key nothing can be continued
 *   safely, but nothing needs to be lost either: a new run is started and the damaged run stays as it was, its kept
 *   runs and records readable by `report`; the line names the file and what is wrong. Refusing instead would stop the
 *   job for a file the user can do nothing with but delete.
 */
import { conflictingSettings } from '../config/conflicts.ts'
import { readSetting } from '../config/variables.ts'
import { makeRunId } from '../results/run-id.ts'
import { countKeptRunsSync } from '../results/run-journal.ts'
import { keyDifferences, type RunKey } from '../results/run-key.ts'
import { inspectRunState } from '../results/run-state.ts'
import { runDirectory } from '../results/store.ts'
import { workDirOf } from './context.ts'
import { datedRuns, lookAt, type RunLook } from './run-candidates.ts'
import { campaignTask } from './settings.ts'

export interface RunChoice {
  runId: string
  /** Whether the run holds kept runs this invocation may reuse. */
  continued: boolean
  /** What to tell the user (none for a plain new run). */
  lines: string[]
}

export interface ChoiceOptions {
  /** The results root (VIRNUCPRO_BENCH_RESULTS_DIR or results/). */
  root: string
  env: NodeJS.ProcessEnv
  /** The run key's shared part this invocation measures under (run-keys.ts environmentKey). */
  key: RunKey
  newRunId?: () => string
  /** This host's clock, which run IDs are dated against (default: now). */
  now?: Date
}

type Interrupted = Extract<RunLook, { status: 'interrupted' }>

const kept = (n: number) => `${n} measured run${n === 1 ? '' : 's'} kept`

/** `3 h 0 min`, `45 min`, `2 d 4 h`: how far ahead a run is dated. */
function spanText(ms: number): string {
  const min = Math.round(ms / 60_000)
  if (min < 60) return `${min} min`
  const h = Math.floor(min / 60)
  return h < 48 ? `${h} h ${min % 60} min` : `${Math.floor(h / 24)} d ${h % 24} h`
}

/**
 * Chooses the run (see the file's comment).
 * @throws SettingError for a bad VIRNUCPRO_BENCH_RUN_ID, VIRNUCPRO_BENCH_FRESH or VIRNUCPRO_BENCH_TASK, or for
 *   VIRNUCPRO_BENCH_FRESH=1 beside a pinned VIRNUCPRO_BENCH_RUN_ID.
 */
export async function chooseRun(o: ChoiceOptions): Promise<RunChoice> {
  const task = campaignTask(o.env)
  const pinned = readSetting(o.env, 'VIRNUCPRO_BENCH_RUN_ID')
  const fresh = readSetting(o.env, 'VIRNUCPRO_BENCH_FRESH') ?? false
  const [conflict] = conflictingSettings(o.env)
  if (conflict) throw conflict.error
  if (pinned) return choosePinned(o, pinned, task)
  let made: string | undefined
  const newId = () => (made ??= (o.newRunId ?? makeRunId)())
  const runs = await datedRuns(o.root, o.now ?? new Date())
  const newest = runs.newest === null ? null : await lookAt(o.root, runs.newest, task)
  const ahead = await Promise.all(runs.ahead.map(async (a) => ({ ...a, look: await lookAt(o.root, a.runId, task) })))
  const isInterrupted = (look: RunLook | null): look is Interrupted => look?.status === 'interrupted'
  const candidate = [newest, ...ahead.map((a) => a.look)].find(isInterrupted)
  const choice = candidate ? continueOrNot(candidate, fresh, o.key, newId) : { runId: newId(), continued: false }
  const continued = choice.continued ? choice.runId : null
  const lines = ahead.map((a) => `${aheadLine(a.runId, a.aheadMs)}: ${aheadFate(a.look, continued, o.key)}`)
  if (newest?.status === 'damaged')
    lines.push(
      `${newest.file}: ${newest.problem}; not continuing ${newest.runId}: its ${kept(newest.kept)} stay as they were${candidate ? '' : `; starting ${choice.runId}`}`,
    )
  return { runId: choice.runId, continued: choice.continued, lines: 'line' in choice ? [...lines, choice.line] : lines }
}

/** The interrupted run continued, or a new run with the line that says why not. */
function continueOrNot(c: Interrupted, fresh: boolean, key: RunKey, newId: () => string) {
  if (fresh)
    return {
      runId: newId(),
      continued: false,
      line: `starting ${newId()} afresh (VIRNUCPRO_BENCH_FRESH=1); ${c.runId} and its ${kept(c.kept)} stay as they were`,
    }
  const differences = keyDifferences(c.state.key, key)
  if (differences.length > 0)
    return {
      runId: newId(),
      continued: false,
      line: `not continuing ${c.runId} (${kept(c.kept)}): ${differences.join('; ')}; starting ${newId()}`,
    }
  return {
    runId: c.runId,
    continued: true,
    line: `continuing ${c.runId} (${c.state.state} ${c.state.updatedAt}): ${kept(c.kept)}; only what is missing is measured (VIRNUCPRO_BENCH_FRESH=1 starts afresh)`,
  }
}

const aheadLine = (runId: string, aheadMs: number) =>
  `run ${runId} is dated ${spanText(aheadMs)} past this host's clock (a clock ahead of this one?), so its date orders nothing`

/** What became of a run dated in the future, and why. */
function aheadFate(look: RunLook, continued: string | null, key: RunKey): string {
  switch (look.status) {
    case 'interrupted': {
      if (look.runId === continued) return 'continued, as no run dated before now is interrupted'
      const sameKey = keyDifferences(look.state.key, key).length === 0
      const how = sameKey ? `VIRNUCPRO_BENCH_RUN_ID=${look.runId} continues it` : 'measured under another key'
      return `set aside with its ${kept(look.kept)} (${how})`
    }
    case 'damaged':
      return `set aside, ${look.file}: ${look.problem}`
    case 'finished':
      return 'set aside, it finished'
    case 'written now':
      return 'set aside, another invocation writes it now'
    case 'no state':
      return 'set aside, it holds no run state'
  }
}

/** The pinned run: continued when its state's key matches this invocation's; else written on, which is said. */
async function choosePinned(o: ChoiceOptions, pinned: string, task: string | null): Promise<RunChoice> {
  const workDir = workDirOf(runDirectory(o.root, pinned), task)
  const read = await inspectRunState(workDir)
  const n = countKeptRunsSync(workDir)
  const named = `${pinned} (VIRNUCPRO_BENCH_RUN_ID)`
  if (read.status === 'damaged') {
    const reuse =
      n > 0
        ? `none of its ${kept(n)} is reused (the key they were measured under is unknown)`
        : 'it keeps no measured run'
    return {
      runId: pinned,
      continued: false,
      lines: [`${read.file}: ${read.problem}; ${named}: ${reuse}, and its state file is written anew`],
    }
  }
  if (read.status === 'absent' || n === 0) return { runId: pinned, continued: false, lines: [] }
  const differences = keyDifferences(read.state.key, o.key)
  return {
    runId: pinned,
    continued: differences.length === 0,
    lines: [
      differences.length === 0
        ? `continuing ${pinned} (VIRNUCPRO_BENCH_RUN_ID; ${read.state.state} ${read.state.updatedAt}): ${kept(n)}`
        : `${named}: its ${kept(n)} were measured under another key, so none is reused: ${differences.join('; ')}`,
    ],
  }
}
