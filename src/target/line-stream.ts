import type { Readable } from 'node:stream'
import { StringDecoder } from 'node:string_decoder'

/**
 * Splits a child's output stream into lines as they arrive. A last line without its newline (the process died
 * mid-write) is passed with `complete: false`, so it is logged but never parsed into events.
 * Resolves when the stream ends or is destroyed.
 */
export function forEachLine(
  stream: Readable,
  onLine: (line: string, complete: boolean) => void,
  onChunk?: (chunk: Buffer) => void,
): Promise<void> {
  // Bytes in, text out through one decoder: `onChunk` gets the bytes exactly as written (invalid UTF-8 included), the
  // lines are the same text setEncoding('utf8') would give.
  const decoder = new StringDecoder('utf8')
  let rest = ''
  const split = (text: string) => {
    let start = 0
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl
      onLine(text.slice(start, end), true)
      start = nl + 1
    }
    rest = text.slice(start)
  }
  stream.on('data', (chunk: Buffer | string) => {
    const bytes = typeof chunk === 'string' ? Buffer.from(chunk) : chunk
    onChunk?.(bytes)
    split(rest + decoder.write(bytes))
  })
  return new Promise<void>((resolve) => {
    const finish = () => {
      const tail = rest + decoder.end()
      if (tail !== '') onLine(tail, false)
      rest = ''
      resolve()
    }
    stream.once('end', finish)
    stream.once('close', finish)
    stream.once('error', finish)
  })
}
