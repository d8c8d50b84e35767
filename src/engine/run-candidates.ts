/**
 * The runs of a results root that an invocation might continue (src/engine/continuation.ts), as found on disk: which
 * are dated up to this host's clock and which in its future, and what each one's work directory says of it.
 */
import { readdir } from 'node:fs/promises'
import { isRunId, runIdDate } from '../results/run-id.ts'
import { countKeptRunsSync } from '../results/run-journal.ts'
import { inspectRunState, type RunState } from '../results/run-state.ts'
import { runDirectory } from '../results/store.ts'
import { writerAlive } from '../results/writer-lock.ts'
import { workDirOf } from './context.ts'

/**
 * How far past this host's clock a run ID may be dated and still be ordered by its date. A run ID is the second its
 * run started by the clock of the node that started it; nodes kept by NTP agree within a second, and the date a
 * node gave its run a moment ago must not read as the future here, so a few minutes is slack enough, while a clock
 * wrong by more is worth a word.
 */
export const FUTURE_TOLERANCE_MS = 5 * 60_000

export interface DatedRuns {
  /** The newest run dated up to now (and the tolerance), or null when there is none. */
  newest: string | null
  /** Runs dated further in the future, newest first, with how far ahead of `now` each is. */
  ahead: { runId: string; aheadMs: number }[]
}

/** The run directories of `root`, split by their date against `now`. */
export async function datedRuns(root: string, now: Date): Promise<DatedRuns> {
  const ids = (await readdir(root).catch(() => [] as string[])).filter(isRunId).sort().reverse()
  const aheadMsOf = (runId: string) => (runIdDate(runId)?.getTime() ?? 0) - now.getTime()
  return {
    newest: ids.find((runId) => aheadMsOf(runId) <= FUTURE_TOLERANCE_MS) ?? null,
    ahead: ids
      .filter((runId) => aheadMsOf(runId) > FUTURE_TOLERANCE_MS)
      .map((runId) => ({ runId, aheadMs: aheadMsOf(runId) })),
  }
}

/** What a run's work directory says: whether it could be continued, and when not, why. */
export type RunLook =
  | { runId: string; workDir: string; status: 'interrupted'; state: RunState; kept: number }
  | { runId: string; workDir: string; status: 'damaged'; file: string; problem: string; kept: number }
  | { runId: string; workDir: string; status: 'finished' | 'written now' | 'no state' }

/**
 * Looks at one run: `interrupted` when its last invocation did not finish (stopped by a signal, or killed) and nobody
 * writes it now; `damaged` when its state file is there but unreadable (and nobody writes it now).
 */
export async function lookAt(root: string, runId: string, task: string | null): Promise<RunLook> {
  const workDir = workDirOf(runDirectory(root, runId), task)
  const read = await inspectRunState(workDir)
  if (read.status === 'absent') return { runId, workDir, status: 'no state' }
  if (read.status === 'read' && read.state.state === 'finished') return { runId, workDir, status: 'finished' }
  if (await writerAlive(workDir)) return { runId, workDir, status: 'written now' }
  const kept = countKeptRunsSync(workDir)
  if (read.status === 'damaged')
    return { runId, workDir, status: 'damaged', file: read.file, problem: read.problem, kept }
  return { runId, workDir, status: 'interrupted', state: read.state, kept }
}
