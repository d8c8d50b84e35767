import { ERROR_SCAN_START, errorLineOf, scanErrorLine } from '../pipeline/error-line.ts'

/** How a probe process ended, as spawnSync or execa report it. */
export interface ProbeExit {
  exitCode: number | null
  stderr: string
  timedOut: boolean
  /** Why it could not start (ENOENT...), when it could not. */
  spawnError?: string
}

/**
 * Why a probe failed, in one line: the first line that explains it (a traceback's exception line, e.g.
 * `ImportError: cannot import name '_aligncore' from 'Bio.Align'`, not a frame and not whatever the interpreter printed
 * on its way out), else its last stderr line, else its exit code. A chained traceback prints its cause first.
 */
export function explainProbeFailure(exit: ProbeExit, timeoutMs: number): string {
  if (exit.timedOut) return `timed out after ${timeoutMs / 1000} s (killed)`
  if (exit.spawnError) return exit.spawnError
  let scan = ERROR_SCAN_START
  for (const text of exit.stderr.split('\n')) {
    scan = scanErrorLine(scan, { text, stream: 'stderr' })
    if (scan.error !== null) return scan.error
  }
  return errorLineOf(scan) ?? `exit code ${exit.exitCode}`
}
