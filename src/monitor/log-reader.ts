/**
 * Reads a monitor JSONL log back into typed records. A last line without its newline (the monitor was killed
 * mid-write) is reported as `truncatedTail`, never parsed; any other line that is not a valid record is an error
 * naming the file and line number.
 */
import { readFile } from 'node:fs/promises'
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
      throw new MonitorLogError(path, lineNo, `not JSON: ${line.slice(0, 80)}`, { cause: error })
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

/** Reads and parses a log file. @throws MonitorLogError, or the fs error when the file cannot be read. */
export async function readMonitorLog(path: string): Promise<MonitorLog> {
  return parseMonitorLog(await readFile(path, 'utf8'), path)
}
