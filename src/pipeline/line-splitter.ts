/**
 * Splits a stream of bytes into lines, in linear time and bounded memory, however the bytes arrive in chunks.
 *
 * A line ends at `\n`, at `\r\n` (one end) or at a lone `\r`: tqdm redraws its bar with `\r` and no `\n`, so a run of
 * hours writes one "line" of many MB that a `\n`-only reader would accumulate (issue 31: a 20 MB line took 25 s, a 100
 * MB one stalled the target on its full pipe). Each redraw is a line of its own here, as a terminal shows it.
 *
 * Linear: each chunk is scanned once (the next `\n` and `\r` positions are found with `indexOf` and kept until
 * passed), and a line's bytes are copied at most once. Bounded: a line keeps at most `maxLineBytes` bytes; the rest is
 * counted, not held, and the line is delivered cut (`cutBytes` says how much), at a character boundary.
 *
 * Lines are decoded one by one as UTF-8: `\n` and `\r` never occur inside a multi-byte character, so this gives the
 * same text as decoding the whole stream and splitting it (invalid bytes read as U+FFFD).
 */

/** One line of a target's output, without its end. */
export interface StreamLine {
  /** The line's text (its first `maxLineBytes` bytes when it was cut). */
  text: string
  /** Bytes of the line past the cap, dropped; 0 for a whole line. */
  cutBytes: number
  /** False for a last line without an end (the process died mid-write, or the stream was cut). */
  complete: boolean
  /**
   * Ended by a lone `\r`: a terminal draws the next line over it (a tqdm redraw). A `\r` that ends a chunk counts
   * as lone, so a `\r\n` split between two chunks reads as one too; only what the tail shows depends on it.
   */
  redraw: boolean
}

export interface LineSplitter {
  /** Feeds the next chunk; lines that end in it are delivered before this returns. */
  push(chunk: Buffer): void
  /** The stream ended: a pending line without its end is delivered with `complete: false`. */
  end(): void
  /** Whether a line has begun that has not ended yet (its first bytes are held, or counted as cut). */
  holding(): boolean
}

/** The default cap on one line (64 KiB): far beyond any line the parser reads, small enough to hold per stream. */
export const MAX_LINE_BYTES = 64 * 1024

const LF = 0x0a
const CR = 0x0d

/** Bytes at the end of `buf[0, end)` that start a UTF-8 character they do not finish (0 when none). */
function partialCharBytes(buf: Buffer, end: number): number {
  let lead = end - 1
  while (lead >= 0 && end - lead < 4 && (buf[lead]! & 0xc0) === 0x80) lead--
  if (lead < 0) return 0
  const byte = buf[lead]!
  const size = byte >= 0xf0 ? 4 : byte >= 0xe0 ? 3 : byte >= 0xc0 ? 2 : 1
  return end - lead < size ? end - lead : 0
}

/** Creates a splitter that calls `onLine` for every line, in order. */
export function createLineSplitter(
  onLine: (line: StreamLine) => void,
  maxLineBytes: number = MAX_LINE_BYTES,
): LineSplitter {
  // The start of the current line, held across chunks: allocated once, at the first line that spans two chunks.
  let held: Buffer | null = null
  let heldBytes = 0
  let cutBytes = 0
  // The previous chunk ended with the `\r` of a line end: a `\n` first in the next chunk is the rest of that end.
  let afterCr = false

  const hold = (chunk: Buffer, from: number, to: number) => {
    const kept = Math.min(to - from, maxLineBytes - heldBytes)
    if (kept > 0) {
      held ??= Buffer.allocUnsafe(maxLineBytes)
      chunk.copy(held, heldBytes, from, from + kept)
      heldBytes += kept
    }
    cutBytes += to - from - kept
  }

  const deliver = (chunk: Buffer, from: number, to: number, complete: boolean, redraw: boolean) => {
    if (heldBytes === 0 && cutBytes === 0 && to - from <= maxLineBytes) {
      // The common case: the whole line lies in this chunk. Decoded in place, nothing copied.
      onLine({ text: chunk.toString('utf8', from, to), cutBytes: 0, complete, redraw })
      return
    }
    hold(chunk, from, to)
    let end = heldBytes
    let cut = cutBytes
    if (cut > 0) {
      const partial = partialCharBytes(held!, end)
      end -= partial
      cut += partial
    }
    const text = end === 0 ? '' : held!.toString('utf8', 0, end)
    heldBytes = 0
    cutBytes = 0
    onLine({ text, cutBytes: cut, complete, redraw })
  }

  const push = (chunk: Buffer) => {
    if (chunk.length === 0) return
    let start = 0
    if (afterCr) {
      afterCr = false
      if (chunk[0] === LF) start = 1
    }
    let nextLf = chunk.indexOf(LF, start)
    let nextCr = chunk.indexOf(CR, start)
    while (nextLf >= 0 || nextCr >= 0) {
      const at = nextCr < 0 || (nextLf >= 0 && nextLf < nextCr) ? nextLf : nextCr
      deliver(chunk, start, at, true, chunk[at] === CR && chunk[at + 1] !== LF)
      start = at + 1
      if (chunk[at] === CR) {
        if (start === chunk.length) afterCr = true
        else if (chunk[start] === LF) start++
      }
      if (nextLf >= 0 && nextLf < start) nextLf = chunk.indexOf(LF, start)
      if (nextCr >= 0 && nextCr < start) nextCr = chunk.indexOf(CR, start)
    }
    if (start < chunk.length) hold(chunk, start, chunk.length)
  }

  const end = () => {
    if (heldBytes > 0 || cutBytes > 0) deliver(Buffer.alloc(0), 0, 0, false, false)
    afterCr = false
  }

  return { push, end, holding: () => heldBytes > 0 || cutBytes > 0 }
}
