import { escapeControls } from '../platform/one-line.ts'

/**
 * How a line of the target's output looks wherever the harness keeps it (the record's log tail, a reading error):
 * at most `maxChars` characters of it, control characters escaped (`\u0000`: a stray NUL or an ANSI colour code cannot
 * reach a report or a terminal), and a marker saying how many bytes were cut. The log file keeps the line whole.
 */

/** The default bound on a kept line: 50 of them in a record's tail stay under 60 kB whatever the target writes. */
export const MAX_KEPT_LINE_CHARS = 1_000

/** A line's text and how many of its bytes are already gone. */
export interface CutText {
  text: string
  cutBytes: number
}

/** The marker that ends a cut line: `…[9,999,000 bytes cut]`. */
export function cutMarker(bytes: number): string {
  return `…[${bytes.toLocaleString('en-US')} bytes cut]`
}

/** The line's first `maxChars` characters (never half a surrogate pair), the rest counted in UTF-8 bytes. */
export function boundLine(line: CutText, maxChars = MAX_KEPT_LINE_CHARS): CutText {
  if (line.text.length <= maxChars) return line
  let end = maxChars
  const code = line.text.charCodeAt(end - 1)
  if (code >= 0xd800 && code <= 0xdbff) end--
  return { text: line.text.slice(0, end), cutBytes: line.cutBytes + Buffer.byteLength(line.text.slice(end)) }
}

/**
 * The line as kept: bounded, escaped, marked. The bound counts characters of the line before escaping, so an escaped
 * line may be longer (at most 6 characters per control character).
 */
export function keptLine(line: CutText, maxChars = MAX_KEPT_LINE_CHARS): string {
  const bound = boundLine(line, maxChars)
  const text = escapeControls(bound.text)
  return bound.cutBytes > 0 ? `${text}${cutMarker(bound.cutBytes)}` : text
}
