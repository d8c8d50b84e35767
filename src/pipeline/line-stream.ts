import type { Readable } from 'node:stream'
import { createLineSplitter, MAX_LINE_BYTES, type StreamLine } from './line-splitter.ts'

/**
 * When a line's bytes came, on the caller's clock: `atMs` with the chunk that ended it, `startedAtMs` with the chunk
 * that held its first byte. They differ for a line written in pieces, above all a tqdm redraw: tqdm writes `\r` and
 * the bar, and only the next write (the next redraw, or a log line glued to the bar) ends it, seconds or hours later.
 */
export interface LineTiming {
  atMs: number
  startedAtMs: number
}

/**
 * Splits a child's output stream into lines as they arrive (line-splitter.ts: `\n`, `\r\n` and `\r` end a line; a
 * line past `maxLineBytes` comes cut). A last line without its end (the process died mid-write) is passed with
 * `complete: false`, so it is logged but never parsed into events. Resolves when the stream ends or is destroyed.
 * `clock` (default: none, every time 0) times each line's first and last chunk (LineTiming).
 */
export function forEachLine(
  stream: Readable,
  onLine: (line: StreamLine, timing: LineTiming) => void,
  /** Gets each chunk's bytes first; a promise it returns pauses the stream until it settles (a log file behind). */
  onChunk?: (chunk: Buffer) => Promise<void> | undefined | void,
  maxLineBytes: number = MAX_LINE_BYTES,
  clock: () => number = () => 0,
): Promise<void> {
  // The chunk being split, and when the line the splitter holds across chunks began.
  let chunkMs = 0
  let heldSinceMs: number | null = null
  let deliveredInChunk = false
  // Bytes in: `onChunk` gets them exactly as written (invalid UTF-8 included), the splitter decodes line by line.
  const splitter = createLineSplitter((line) => {
    // The first line ended in a chunk is the one held from an earlier chunk, if one was; the rest began in this one.
    const startedAtMs = !deliveredInChunk && heldSinceMs !== null ? heldSinceMs : chunkMs
    deliveredInChunk = true
    onLine(line, { atMs: chunkMs, startedAtMs })
  }, maxLineBytes)
  stream.on('data', (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    chunkMs = clock()
    deliveredInChunk = false
    const behind = onChunk?.(bytes)
    if (behind instanceof Promise) {
      stream.pause()
      void behind.then(() => stream.resume())
    }
    splitter.push(bytes)
    // What the splitter holds now began in this chunk, unless it held it before and ended no line since.
    if (!splitter.holding()) heldSinceMs = null
    else if (deliveredInChunk || heldSinceMs === null) heldSinceMs = chunkMs
  })
  return new Promise<void>((resolve) => {
    let finished = false
    const finish = () => {
      if (finished) return
      finished = true
      chunkMs = clock()
      deliveredInChunk = false
      splitter.end()
      resolve()
    }
    stream.once('end', finish)
    stream.once('close', finish)
    stream.once('error', finish)
  })
}
