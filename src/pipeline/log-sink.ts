import { createWriteStream, type WriteStream } from 'node:fs'
import { mkdir } from 'node:fs/promises'
import { dirname } from 'node:path'
import type { OutputStream } from './error-line.ts'
import { boundLine, type CutText, keptLine } from './kept-line.ts'
import type { StreamLine } from './line-splitter.ts'

/**
 * The run's full log on disk, byte for byte as the target wrote it, plus the last lines in memory for the run record.
 *
 * The file gets each stream's bytes unchanged (`\r` redraws, invalid UTF-8, a line of 100 MB), a whole line at a time:
 * a stream's bytes after its last line end wait (up to MAX_HELD_BYTES) until that line ends, so a stdout line cut by
 * Python's block buffering is not split by a stderr line arriving in between. Each stream alone is byte-identical to
 * what it wrote; only where two streams meet is the order the harness's (by line ends, as they arrived).
 */
export interface LogSink {
  readonly path: string
  /**
   * One stream's bytes, as they arrived. Returns a promise when the file is behind (more than FILE_BACKLOG_BYTES not
   * yet written), settled once it has caught up: the caller stops reading the target's pipe until then, as a slow
   * terminal would, so a target that writes faster than the disk takes no more memory here; undefined otherwise.
   */
  writeBytes(chunk: Buffer, stream: OutputStream): Promise<void> | undefined
  /**
   * Keeps a line for the tail (bounded and escaped when the tail is read). A line that follows a redraw of its stream
   * (a line ended by a lone `\r`) takes its place, as on a terminal: 10 hours of a bar leave its last state, not 50
   * redraws that hide the lines before them.
   */
  keepLine(line: StreamLine, stream: OutputStream): void
  /** The last `tailLines` lines kept, oldest first, each bounded (kept-line.ts). */
  tail(): string[]
  /** Writes what each stream still holds, flushes and closes the file. */
  close(): Promise<void>
}

/** What one stream may hold back waiting for a line end; a longer line goes to the file as it comes. */
const MAX_HELD_BYTES = 64 * 1024
/**
 * Bytes handed to the file and not yet written past which the writer waits (the write stream's high-water mark). A
 * write stream takes whatever it is given and queues it: a 35 MB tqdm stream read at 40 MB/s held 3-48 MB in the
 * queue from one run to the next, by how the disk kept up.
 */
const FILE_BACKLOG_BYTES = 1024 * 1024

/**
 * The position after the last line end (`\n` or `\r`) of `chunk`, or 0 when it has none. A `\r` that ends the chunk
 * may be the first half of a `\r\n` whose `\n` comes in the next chunk: its line waits, so no other stream's line
 * can come between the two.
 */
function afterLastLineEnd(chunk: Buffer): number {
  const end = chunk.length > 0 && chunk[chunk.length - 1] === 0x0d ? chunk.length - 1 : chunk.length
  return Math.max(chunk.lastIndexOf(0x0a, end - 1), chunk.lastIndexOf(0x0d, end - 1)) + 1
}

/** Passes bytes on a line at a time, holding a stream's unfinished line (up to MAX_HELD_BYTES). */
function lineAligned(write: (bytes: Buffer) => boolean) {
  let held: Buffer[] = []
  let heldBytes = 0
  const endsWithCr = () => heldBytes > 0 && held.at(-1)!.at(-1) === 0x0d
  // Whether every write so far was taken without going past the backlog.
  let taken = true
  const flush = () => {
    if (heldBytes > 0) taken = write(held.length === 1 ? held[0]! : Buffer.concat(held, heldBytes)) && taken
    held = []
    heldBytes = 0
  }
  return {
    /** Returns false when a write went past the file's backlog (log-sink's FILE_BACKLOG_BYTES). */
    push(chunk: Buffer): boolean {
      taken = true
      // A held line that ends with `\r` is whole unless this chunk starts with the `\n` of its `\r\n`.
      if (chunk.length > 0 && chunk[0] !== 0x0a && endsWithCr()) flush()
      const cut = afterLastLineEnd(chunk)
      if (cut > 0) {
        flush()
        taken = write(chunk.subarray(0, cut)) && taken
      }
      if (cut === chunk.length) return taken
      // A copy: the caller's buffer may be reused once this returns.
      held.push(Buffer.from(chunk.subarray(cut)))
      heldBytes += chunk.length - cut
      if (heldBytes > MAX_HELD_BYTES) flush()
      return taken
    },
    flush,
    /** Whether what it holds is a whole line (its `\r` waited for a `\n` that never came). */
    holdsWholeLine: endsWithCr,
  }
}

/**
 * Opens (truncates) the log file, creating its directory.
 * @throws the file system error (EACCES, ENOTDIR, ...) when the file cannot be opened.
 */
export async function openLogSink(path: string, tailLines = 50): Promise<LogSink> {
  await mkdir(dirname(path), { recursive: true })
  const file: WriteStream = createWriteStream(path, { highWaterMark: FILE_BACKLOG_BYTES })
  await new Promise<void>((resolve, reject) => {
    file.once('open', () => resolve())
    file.once('error', reject)
  })
  let failure: Error | null = null
  file.on('error', (error) => {
    failure = error
  })
  // A failed file takes nothing more, and nobody waits on it.
  const write = (bytes: Buffer) => failure !== null || file.write(bytes)
  // One wait for every caller while the file is behind: settled by its drain, or by its failure (no drain comes then).
  let caughtUp: Promise<void> | null = null
  const whenCaughtUp = () => {
    caughtUp ??= new Promise<void>((resolve) => {
      const done = () => {
        file.off('drain', done)
        file.off('error', done)
        caughtUp = null
        resolve()
      }
      file.once('drain', done)
      file.once('error', done)
    })
    return caughtUp
  }
  const streams = { stdout: lineAligned(write), stderr: lineAligned(write) }
  const ring: CutText[] = []
  let next = 0
  // The stream of the newest entry, when that entry is a redraw the next line of its stream draws over.
  let redrawOf: OutputStream | null = null
  return {
    path,
    writeBytes: (chunk, stream) => (streams[stream].push(chunk) || failure !== null ? undefined : whenCaughtUp()),
    keepLine(line, stream) {
      // Bounded now, escaped only when the tail is read: most lines written are never shown.
      const entry = boundLine(line)
      if (redrawOf === stream) ring[(next - 1 + tailLines) % tailLines] = entry
      else {
        if (ring.length < tailLines) ring.push(entry)
        else ring[next] = entry
        next = (next + 1) % tailLines
      }
      redrawOf = line.redraw ? stream : null
    },
    tail: () =>
      (ring.length < tailLines ? ring : [...ring.slice(next), ...ring.slice(0, next)]).map((l) => keptLine(l)),
    close() {
      // A whole line first: the other stream's unfinished one then ends the file instead of being glued before it.
      const order = streams.stderr.holdsWholeLine() ? ['stderr', 'stdout'] : ['stdout', 'stderr']
      for (const stream of order as OutputStream[]) streams[stream].flush()
      return new Promise<void>((resolve) => file.end(() => resolve()))
    },
  }
}
