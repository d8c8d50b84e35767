/**
 * The line that says why a run failed, read from its output as it streams by: the exit code says only that it failed,
 * and the cause (an ImportError, a CUDA error, a missing file) is one line somewhere in a log the record keeps only the
 * tail of. Pure: a fold over the lines (`scanErrorLine`), so the runner keeps a few strings, never the whole log.
 */
import { splitLogLine } from './log-line.ts'

export type OutputStream = 'stdout' | 'stderr'

export interface OutputLine {
  text: string
  stream: OutputStream
}

/** What the scan remembers; start from ERROR_SCAN_START. */
export interface ErrorLineScan {
  /** Per stream: inside a Python traceback (after its header, before its exception line). */
  readonly inTraceback: Readonly<Record<OutputStream, boolean>>
  /** The last exception line of a traceback or ERROR/CRITICAL log line, whichever came last. */
  readonly error: string | null
  /** The last non-empty stderr line: the fallback when the run printed no error line of either kind. */
  readonly stderr: string | null
}

export const ERROR_SCAN_START: ErrorLineScan = {
  inTraceback: { stdout: false, stderr: false },
  error: null,
  stderr: null,
}

/** A line this long is cut (an exception message can carry a whole tensor or file). */
export const MAX_ERROR_LINE_CHARS = 500

const TRACEBACK_HEADER = /^Traceback \(most recent call last\):\s*$/
/**
 * The line a traceback ends with: a dotted exception name ending in Error/Exception (or KeyboardInterrupt, SystemExit),
 * alone or followed by `: message`, at column 0. Frame lines are indented, and log lines start with a timestamp, so
 * neither matches; output of other processes interleaved inside the traceback (workers share stderr) is passed over.
 */
const EXCEPTION_LINE = /^(?:[A-Za-z_]\w*\.)*(?:[A-Za-z_]\w*(?:Error|Exception)|KeyboardInterrupt|SystemExit)(?::.*)?$/
const ERROR_LEVELS: ReadonlySet<string> = new Set(['ERROR', 'CRITICAL'])

function cut(text: string): string {
  return text.length > MAX_ERROR_LINE_CHARS ? `${text.slice(0, MAX_ERROR_LINE_CHARS - 1)}…` : text
}

/** An ERROR/CRITICAL line of the VirNucPro log format as `[Worker r: ]message`; null for any other line. */
function errorLogMessage(text: string): string | null {
  const line = splitLogLine(text)
  if (line.level === null || !ERROR_LEVELS.has(line.level)) return null
  const message = line.message.trim()
  if (message === '') return null
  return line.worker === null ? message : `Worker ${line.worker}: ${message}`
}

/** The scan after one more line of output (either stream, in arrival order). Never throws. */
export function scanErrorLine(scan: ErrorLineScan, line: OutputLine): ErrorLineScan {
  const text = line.text.endsWith('\r') ? line.text.slice(0, -1) : line.text
  const trimmed = text.trim()
  const stderr = line.stream === 'stderr' && trimmed !== '' ? cut(trimmed) : scan.stderr
  if (TRACEBACK_HEADER.test(text))
    return { inTraceback: { ...scan.inTraceback, [line.stream]: true }, error: scan.error, stderr }
  if (scan.inTraceback[line.stream] && EXCEPTION_LINE.test(text))
    return { inTraceback: { ...scan.inTraceback, [line.stream]: false }, error: cut(trimmed), stderr }
  const logged = errorLogMessage(text)
  return { inTraceback: scan.inTraceback, error: logged === null ? scan.error : cut(logged), stderr }
}

/** The error line the scan found: the last traceback exception or ERROR log line, else the last stderr line. */
export function errorLineOf(scan: ErrorLineScan): string | null {
  return scan.error ?? scan.stderr
}

/** The error line of a whole output, lines in arrival order; null when it has neither error lines nor stderr. */
export function lastErrorLine(lines: Iterable<OutputLine>): string | null {
  let scan = ERROR_SCAN_START
  for (const line of lines) scan = scanErrorLine(scan, line)
  return errorLineOf(scan)
}
