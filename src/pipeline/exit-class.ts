import type { ExitClassName } from './profiles.ts'

/** How a run ended: the profile's exit codes, plus what only the harness knows (its timeout, foreign signals). */
export type ExitClass = ExitClassName | 'timeout' | 'signal'

export interface ExitFacts {
  exitCode: number | null
  /** Signal that ended the root process, if any. */
  signal: string | null
  /** We ended it because `timeoutMs` passed. */
  timedOut: boolean
  timeoutMs?: number
  /** We ended it because the caller's AbortSignal fired. */
  aborted: boolean
  /** The log had a `CUDA out of memory` line. */
  sawOom: boolean
  exitCodes: Record<number, ExitClassName>
}

/**
 * Classifies a finished run (docs/UPSTREAM.md exit codes). A non-zero exit with an OOM line in the log is `oom` even
 * when the target exits 1, because upstream only maps some OOM paths to exit code 4. A caller's abort is a `failed`
 * run with that reason: the run did not end on its own and must not count as a result.
 */
export function classifyExit(facts: ExitFacts): { exitClass: ExitClass; reason: string | null } {
  if (facts.timedOut) return { exitClass: 'timeout', reason: `timed out after ${facts.timeoutMs ?? '?'} ms` }
  if (facts.aborted) return { exitClass: 'failed', reason: 'aborted by the caller' }
  if (facts.signal !== null)
    return { exitClass: 'signal', reason: `killed by ${facts.signal} (not sent by the harness)` }
  const code = facts.exitCode ?? -1
  if (code !== 0 && facts.sawOom)
    return { exitClass: 'oom', reason: `exit code ${code} with a CUDA out-of-memory line` }
  const exitClass = facts.exitCodes[code] ?? 'failed'
  return { exitClass, reason: exitClass === 'completed' ? null : `exit code ${code}` }
}
