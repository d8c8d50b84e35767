/**
 * Which run an invocation writes into: the one VIRNUCPRO_BENCH_RUN_ID pins; else the newest run of the results root
 * when it was interrupted (stopped by a signal, or killed: its writer gone quiet) and measured under the same key, so
 * that the same command run again continues where it stopped; else a new one. VIRNUCPRO_BENCH_FRESH=1 starts a new
 * run on purpose. Every choice but a plain new run is said in one line, a differing key with what differs.
 */
import { readdir } from 'node:fs/promises'
import { readSetting } from '../config/variables.ts'
import { isRunId, makeRunId } from '../results/run-id.ts'
import { countKeptRunsSync } from '../results/run-journal.ts'
import { keyDifferences, type RunKey } from '../results/run-key.ts'
import { readRunState } from '../results/run-state.ts'
import { runDirectory } from '../results/store.ts'
import { writerAlive } from '../results/writer-lock.ts'
import { workDirOf } from './context.ts'
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
}

const kept = (n: number) => `${n} measured run${n === 1 ? '' : 's'} kept`

/** The newest run directory, when its last invocation did not finish and nobody writes it now. */
async function interrupted(root: string, task: string | null) {
  const newest = (await readdir(root).catch(() => [] as string[])).filter(isRunId).sort().at(-1)
  if (!newest) return null
  const workDir = workDirOf(runDirectory(root, newest), task)
  const state = await readRunState(workDir)
  if (!state || state.state === 'finished' || (await writerAlive(workDir))) return null
  return { runId: newest, workDir, state }
}

/**
 * Chooses the run (see the file's comment).
 * @throws SettingError for a bad VIRNUCPRO_BENCH_RUN_ID or VIRNUCPRO_BENCH_FRESH.
 */
export async function chooseRun(o: ChoiceOptions): Promise<RunChoice> {
  const task = campaignTask(o.env)
  const pinned = readSetting(o.env, 'VIRNUCPRO_BENCH_RUN_ID')
  if (pinned) {
    const workDir = workDirOf(runDirectory(o.root, pinned), task)
    const state = await readRunState(workDir)
    const n = countKeptRunsSync(workDir)
    if (!state || n === 0) return { runId: pinned, continued: false, lines: [] }
    const differences = keyDifferences(state.key, o.key)
    return {
      runId: pinned,
      continued: differences.length === 0,
      lines: [
        differences.length === 0
          ? `continuing ${pinned} (VIRNUCPRO_BENCH_RUN_ID; ${state.state} ${state.updatedAt}): ${kept(n)}`
          : `${pinned} (VIRNUCPRO_BENCH_RUN_ID): its ${kept(n)} were measured under another key, so none is reused: ${differences.join('; ')}`,
      ],
    }
  }
  const fresh = readSetting(o.env, 'VIRNUCPRO_BENCH_FRESH') ?? false
  const newRunId = o.newRunId ?? (() => makeRunId())
  const last = await interrupted(o.root, task)
  if (!last) return { runId: newRunId(), continued: false, lines: [] }
  const n = countKeptRunsSync(last.workDir)
  const runId = newRunId()
  if (fresh)
    return {
      runId,
      continued: false,
      lines: [`starting ${runId} afresh (VIRNUCPRO_BENCH_FRESH=1); ${last.runId} and its ${kept(n)} stay as they were`],
    }
  const differences = keyDifferences(last.state.key, o.key)
  if (differences.length > 0)
    return {
      runId,
      continued: false,
      lines: [`not continuing ${last.runId} (${kept(n)}): ${differences.join('; ')}; starting ${runId}`],
    }
  return {
    runId: last.runId,
    continued: true,
    lines: [
      `continuing ${last.runId} (${last.state.state} ${last.state.updatedAt}): ${kept(n)}; only what is missing is measured (VIRNUCPRO_BENCH_FRESH=1 starts afresh)`,
    ],
  }
}
