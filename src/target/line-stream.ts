import type { Readable } from 'node:stream'
import { createLineSplitter, MAX_LINE_BYTES, type StreamLine } from './line-splitter.ts'

/**
 * Splits a child's output stream into lines as they arrive (line-splitter.ts: `\n`, `\r\n` and `\r` end a line; a
 * line past `maxLineBytes` comes cut). A last line without its end (the process died mid-write) is passed with
 * `complete: false`, so it is logged but never parsed into events. Resolves when the stream ends or is destroyed.
 */
export function forEachLine(
  stream: Readable,
  onLine: (line: StreamLine) => void,
  onChunk?: (chunk: Buffer) => void,
  maxLineBytes: number = MAX_LINE_BYTES,
): Promise<void> {
  // Bytes in: `onChunk` gets them exactly as written (invalid UTF-8 included), the splitter decodes line by line.
  const splitter = createLineSplitter(onLine, maxLineBytes)
  stream.on('data', (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    onChunk?.(bytes)
    splitter.push(bytes)
  })
  return new Promise<void>((resolve) => {
    let finished = false
    const finish = () => {
      if (finished) return
      finished = true
      splitter.end()
      resolve()
    }
    stream.once('end', finish)
    stream.once('close', finish)
    stream.once('error', finish)
  })
}
