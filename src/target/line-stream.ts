import type { Readable } from 'node:stream'

/**
 * Splits a child's output stream into lines as they arrive. A last line without its newline (the process died
 * mid-write) is passed with `complete: false`, so it is logged but never parsed into events.
 * Resolves when the stream ends or is destroyed.
 */
export function forEachLine(stream: Readable, onLine: (line: string, complete: boolean) => void): Promise<void> {
  stream.setEncoding('utf8')
  let rest = ''
  stream.on('data', (chunk: string) => {
    const text = rest + chunk
    let start = 0
    for (let nl = text.indexOf('\n'); nl >= 0; nl = text.indexOf('\n', start)) {
      const end = nl > start && text.charCodeAt(nl - 1) === 13 ? nl - 1 : nl
      onLine(text.slice(start, end), true)
      start = nl + 1
    }
    rest = text.slice(start)
  })
  return new Promise<void>((resolve) => {
    const finish = () => {
      if (rest !== '') onLine(rest, false)
      rest = ''
      resolve()
    }
    stream.once('end', finish)
    stream.once('close', finish)
    stream.once('error', finish)
  })
}
