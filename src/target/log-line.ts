/**
 * Splits one log line into the upstream logging prefix and the message. VirNucPro's main process logs
 * `YYYY-mm-dd HH:MM:SS - <logger> - LEVEL - msg` (Python's asctime may add `,mmm`); its v2 workers add
 * `Worker {r} - ` before the logger name. Lines without a prefix (print output, tracebacks) keep the whole line as the
 * message so that the parser still sees them.
 */

export interface LogLine {
  timestamp: string | null
  worker: number | null
  logger: string | null
  level: string | null
  message: string
}

const PREFIX =
  /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:[,.]\d{1,6})?) - (?:Worker (\d+) - )?(.*?) - (DEBUG|INFO|WARNING|ERROR|CRITICAL) - ?(.*)$/

/** Splits a raw line (without its newline) into prefix fields and message; never throws. */
export function splitLogLine(raw: string): LogLine {
  const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw
  const m = PREFIX.exec(line)
  if (!m) return { timestamp: null, worker: null, logger: null, level: null, message: line }
  return {
    timestamp: m[1]!,
    worker: m[2] === undefined ? null : Number(m[2]),
    logger: m[3]!,
    level: m[4]!,
    message: m[5]!,
  }
}

const GROUPED = /^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/

/**
 * Parses a number printed by Python with `{:,}`/`{:,.0f}`/`{:.1f}` (`1,234`, `12,345.6`, `0.5`); null for anything
 * else, including `nan` and text, so callers can keep such values as strings.
 */
export function parseGroupedNumber(text: string): number | null {
  const trimmed = text.trim()
  if (!GROUPED.test(trimmed)) return null
  return Number(trimmed.replaceAll(',', ''))
}
