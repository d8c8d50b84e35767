/**
 * Reads a monitor JSONL log back into typed records. A last line without its newline (the monitor was killed
 * mid-write) is reported as `truncatedTail`, never parsed; any other line that is not a valid record is an error
 * naming the file and line number.
 */
import { jsonSyntaxProblem } from '../platform/json-problem.ts'
import { ONE_STRING_MAX_BYTES, readRegularFile } from '../platform/regular-file.ts'
import { monitorRecordSchema } from './log-schema.ts'
import type { MonitorRecord } from './records.ts'

export class MonitorLogError extends Error {
  override readonly name = 'MonitorLogError'
  readonly path: string
  readonly line: number

  constructor(path: string, line: number, message: string, options?: { cause?: unknown }) {
    super(`${path}:${line}: ${message}`, options)
    this.path = path
    this.line = line
  }
}

export interface MonitorLog {
  records: MonitorRecord[]
  /** Bytes after the last newline: a record cut off by a crash; empty when the file ends cleanly. */
  truncatedTail: string
}

/**
 * Parses the text of a log. `path` only names the source in errors.
 * @throws MonitorLogError for a complete line that is not JSON or not a known record.
 */
export function parseMonitorLog(text: string, path = '<text>'): MonitorLog {
  const end = text.lastIndexOf('\n') + 1
  const records: MonitorRecord[] = []
  let lineNo = 0
  for (const line of text.slice(0, end).split('\n')) {
    lineNo++
    if (line === '') continue
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch (error) {
      // Where, not what: the line's bytes would reach a report's notes (a log path a record names may lead anywhere).
      throw new MonitorLogError(path, lineNo, `not JSON (${jsonSyntaxProblem(error, line)})`, { cause: error })
    }
    const parsed = monitorRecordSchema.safeParse(value)
    if (!parsed.success) {
      const issue = parsed.error.issues[0]
      throw new MonitorLogError(path, lineNo, `not a monitor record: ${issue?.path.join('.')} ${issue?.message}`, {
        cause: parsed.error,
      })
    }
    records.push(parsed.data as MonitorRecord)
  }
  return { records, truncatedTail: text.slice(end) }
}

/**
 * A log is read whole into one string (8 GPUs sampled every 100 ms write about 80 MB an hour): no smaller bound would
 * be right for every run, so the bound is what one string holds.
 */
export const MONITOR_LOG_MAX_BYTES = ONE_STRING_MAX_BYTES

/**
 * Reads and parses a log file: a regular file of at most MONITOR_LOG_MAX_BYTES, never waited on (a FIFO is refused).
 * @throws MonitorLogError; FileRefusedError naming the file when it is not there, not a regular file or too large.
 */
export async function readMonitorLog(path: string): Promise<MonitorLog> {
  return parseMonitorLog(await readRegularFile(path, { maxBytes: MONITOR_LOG_MAX_BYTES }), path)
}
