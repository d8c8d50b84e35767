import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'

/** The run's full log on disk plus the last lines in memory for the run record. */
export interface LogSink {
  readonly path: string
  write(line: string): void
  /** The last `tailLines` lines written, oldest first. */
  tail(): string[]
  /** Flushes and closes the file. */
  close(): Promise<void>
}

/**
 * Opens (truncates) the log file, creating its directory.
 * @throws the file system error (EACCES, ENOTDIR, ...) when the file cannot be opened.
 */
export async function openLogSink(path: string, tailLines = 50): Promise<LogSink> {
  await mkdir(dirname(path), { recursive: true })
  const stream: WriteStream = createWriteStream(path)
  await new Promise<void>((resolve, reject) => {
    stream.once('open', () => resolve())
    stream.once('error', reject)
  })
  let failure: Error | null = null
  stream.on('error', (error) => {
    failure = error
  })
  const ring: string[] = []
  let next = 0
  return {
    path,
    write(line) {
      if (failure === null) stream.write(`${line}\n`)
      if (ring.length < tailLines) ring.push(line)
      else ring[next] = line
      next = (next + 1) % tailLines
    },
    tail: () => (ring.length < tailLines ? [...ring] : [...ring.slice(next), ...ring.slice(0, next)]),
    close: () => new Promise<void>((resolve) => stream.end(() => resolve())),
  }
}
