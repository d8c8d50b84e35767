import { ERROR_SCAN_START, errorLineOf, type OutputStream, scanErrorLine } from './error-line.ts'
import type { TargetEvent } from './events.ts'
import { keptLine } from './kept-line.ts'
import type { StreamLine } from './line-splitter.ts'
import { createLogParser } from './log-parser.ts'
import type { LogSink } from './log-sink.ts'
import type { LogReadError, LogReadErrors } from './run-record.ts'

/**
 * What one run's output becomes, line by line as it streams by: the log file (every byte), the record's tail, the
 * error line, the parsed events, and the lines the parser could not read. Keeps a bounded amount whatever the target
 * writes: the kept events (a few per stage), 50 tail lines, the first MAX_READ_ERRORS reading errors.
 */
export interface RunOutput {
  /** A promise: the log file is behind, and the pipe waits until it settles (log-sink.ts). */
  onChunk(chunk: Buffer, stream: OutputStream): Promise<void> | undefined
  /** `startedAtMs`: when the line's first byte came (default `atMs`), which times a tqdm redraw. */
  onLine(line: StreamLine, atMs: number, stream: OutputStream, startedAtMs?: number): void
  /** The events the record needs (stage starts and ends, the summary, OOM lines), in arrival order. */
  readonly events: readonly TargetEvent[]
  /** The line that says why the run failed, control characters escaped (error-line.ts). */
  errorLine(): string | null
  readErrors(): LogReadErrors
}

// Only the events the record needs are kept: batch and worker lines can number in the millions.
const KEPT: ReadonlySet<TargetEvent['type']> = new Set(['architecture', 'stage-start', 'stage-end', 'summary', 'oom'])

/** Reading errors kept in full; the rest are counted. */
export const MAX_READ_ERRORS = 20
/** A reading error's line as kept: enough to find it in the log file. */
const READ_ERROR_LINE_CHARS = 300

export function readRunOutput(sink: LogSink, onEvent?: (event: TargetEvent) => void): RunOutput {
  const parser = createLogParser()
  const events: TargetEvent[] = []
  const first: LogReadError[] = []
  let total = 0
  let errorScan = ERROR_SCAN_START

  const readError = (line: string, problems: string[], atMs: number, stream: OutputStream) => {
    total++
    if (first.length < MAX_READ_ERRORS)
      first.push({
        atMs,
        stream,
        line: keptLine({ text: line, cutBytes: 0 }, READ_ERROR_LINE_CHARS),
        reason: problems.join('; '),
      })
  }

  return {
    onChunk: (chunk, stream) => sink.writeBytes(chunk, stream),
    onLine(line, atMs, stream, startedAtMs = atMs) {
      sink.keepLine(line, stream)
      // A cut last line (the process died mid-write) may be the very error line: scanned, though never parsed.
      errorScan = scanErrorLine(errorScan, { text: line.text, stream })
      // A line cut at the cap is no line the pipeline logs (the longest are a few hundred bytes): logged, not parsed.
      if (!line.complete || line.cutBytes > 0) return
      for (const event of parser.push(line.text, atMs, startedAtMs)) {
        if (event.type === 'read-error') readError(event.line, event.problems, atMs, stream)
        else if (KEPT.has(event.type)) events.push(event)
        onEvent?.(event)
      }
    },
    events,
    errorLine: () => {
      const found = errorLineOf(errorScan)
      return found === null ? null : keptLine({ text: found, cutBytes: 0 })
    },
    readErrors: () => ({ total, first: [...first] }),
  }
}
