import { closeSync, openSync, readSync } from 'node:fs'
import { createLineSplitter, type StreamLine } from './line-splitter.ts'

const BLOCK_BYTES = 64 * 1024

/**
 * The lines of a stored run log (the runner's `target.log`, every byte as the target wrote it) that the runner parsed
 * as it ran: split the same way (line-splitter.ts: `\n`, `\r\n` and `\r` end a line, tqdm redraws included), complete
 * and whole (a line cut at the cap, or the unterminated last one, is left out as the runner left it out). Read in
 * 64 KiB blocks, so a log of GB with lines of 100 MB is read in bounded memory. Synchronous, like the readers that
 * take its lines.
 * @throws the file system error when the file cannot be opened or read.
 */
export function* logFileLines(path: string): Generator<string> {
  const fd = openSync(path, 'r')
  try {
    const ready: string[] = []
    const splitter = createLineSplitter((line: StreamLine) => {
      if (line.complete && line.cutBytes === 0) ready.push(line.text)
    })
    const block = Buffer.allocUnsafe(BLOCK_BYTES)
    for (let read = readSync(fd, block); read > 0; read = readSync(fd, block)) {
      splitter.push(block.subarray(0, read))
      yield* ready.splice(0)
    }
    splitter.end()
    yield* ready.splice(0)
  } finally {
    closeSync(fd)
  }
}

/** The lines of a stored log already read into memory, split as logFileLines splits a file. */
export function textLines(text: string): string[] {
  const lines: string[] = []
  const splitter = createLineSplitter((line: StreamLine) => {
    if (line.complete && line.cutBytes === 0) lines.push(line.text)
  })
  splitter.push(Buffer.from(text))
  splitter.end()
  return lines
}
