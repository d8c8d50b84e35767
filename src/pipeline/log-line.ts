import { stripVTControlCharacters } from 'node:util'

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
  /**
   * What came before a prefix found after other text: a tqdm bar's last redraw that a logger's line was glued to
   * (absent when the prefix starts the line, or there is none).
   */
  glued?: string
}

const PREFIX =
  /^(\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}(?:[,.]\d{1,6})?) - (?:Worker (\d+) - )?(.*?) - (DEBUG|INFO|WARNING|ERROR|CRITICAL) - ?(.*)$/
const STAMP = /\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/

const NOT_PRINTABLE_ASCII = /[^\t -~]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this finds.
const CONTROL = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/
// biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what this removes.
const CONTROLS = /[\u0000-\u0008\u000a-\u001f\u007f-\u009f]/g

/**
 * The line as the parser reads it: ANSI escape sequences (colours, cursor moves) and every other control character
 * but tab removed. A stray NUL in a stage header (`DNABERT-S\0 Feature Extraction`) then still names the stage its
 * end line names, and no control byte reaches an event, a record or a report.
 */
export function cleanLine(raw: string): string {
  // Most lines are printable ASCII: one quick scan says so (a line with other characters is then checked in full).
  if (!NOT_PRINTABLE_ASCII.test(raw) || !CONTROL.test(raw)) return raw
  return stripVTControlCharacters(raw).replace(CONTROLS, '')
}

/**
 * Splits a raw line (without its end) into prefix fields and message, after cleanLine; never throws. A prefix that
 * does not start the line is found after a tqdm bar's text (a logger writing to the stream a bar is drawn on, without
 * clearing it first, glues its line to the bar's last redraw).
 */
export function splitLogLine(raw: string, problems: ReadProblems = []): LogLine {
  const line = cleanLine(raw)
  let m = PREFIX.exec(line)
  let glued: string | undefined
  // Only a line with the prefix's ` - ` is searched (a bar's redraws, most lines of a long run, have none).
  if (!m && line.includes(' - ')) {
    const at = line.search(STAMP)
    if (at > 0) m = PREFIX.exec(line.slice(at))
    if (m) glued = line.slice(0, at)
  }
  // A worker rank no double holds: the prefix is not read, so the line is no worker's (nor the main process's).
  const worker = m?.[2] === undefined ? null : readNumber(m[2], 'worker rank', problems)
  if (!m || (m[2] !== undefined && worker === null))
    return { timestamp: null, worker: null, logger: null, level: null, message: line }
  const fields = { timestamp: m[1]!, worker, logger: m[3]!, level: m[4]!, message: m[5]! }
  return glued === undefined ? fields : { ...fields, glued }
}

/** Why parts of one line could not be read: the parser turns a non-empty list into a reading error for that line. */
export type ReadProblems = string[]

const GROUPED = /^-?(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?$/
const SHOWN_DIGITS = 20

/**
 * A number the log printed (digits, maybe `,` separators and a fraction), if a double holds it: null, with a problem
 * naming `what` and the text, when it is beyond 1.8e308 (a 400-digit duration would read as Infinity, which no
 * record accepts) or an integer beyond 2^53 - 1 (it would read back as another integer).
 */
export function readNumber(text: string, what: string, problems: ReadProblems): number | null {
  const plain = text.includes(',') ? text.replaceAll(',', '') : text
  // Up to 15 digits (with a fraction or not) is always an exact, finite double: the common case, checked no further.
  if (plain.length <= 15) return Number(plain)
  const value = Number(plain)
  const integer = !text.includes('.')
  if (Number.isFinite(value) && (!integer || Number.isSafeInteger(value))) return value
  const shown =
    text.length > SHOWN_DIGITS ? `'${text.slice(0, SHOWN_DIGITS)}…' (${text.length} characters)` : `'${text}'`
  const limit = Number.isFinite(value)
    ? `the largest exact integer (${Number.MAX_SAFE_INTEGER.toLocaleString('en-US')})`
    : 'what a number holds'
  problems.push(`${what} ${shown} is beyond ${limit}`)
  return null
}

/**
 * Parses a number printed by Python with `{:,}`/`{:,.0f}`/`{:.1f}` (`1,234`, `12,345.6`, `0.5`); null for anything
 * else, including `nan`, text and a number no double holds (readNumber).
 */
export function parseGroupedNumber(text: string): number | null {
  const trimmed = text.trim()
  if (!GROUPED.test(trimmed)) return null
  return readNumber(trimmed, 'value', [])
}

/**
 * A `key: value` value: a number when it is one (readNumber), the text when it is not a number at all, null (with a
 * problem naming `what`) when it is a number no double holds.
 */
export function readGroupedValue(text: string, what: string, problems: ReadProblems): number | string | null {
  const trimmed = text.trim()
  return GROUPED.test(trimmed) ? readNumber(trimmed, what, problems) : text
}
