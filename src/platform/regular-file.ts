/**
 * The one way a file named by a directory's listing or by a stored record is read: as a regular file of a bounded
 * size, never waited on, each refusal naming the file and the kind of problem (never the bytes).
 * - The type is checked with stat before the file is opened, and the open itself is non-blocking (O_NONBLOCK) and
 *   checked again (fstat): a FIFO answers at once instead of hanging the command until a writer appears, and a device
 *   (/dev/zero, a tape) is never opened at all. The second check covers a file swapped between the two.
 * - At most `maxBytes` are read: a file that is larger, or grows while read, is refused with its size.
 * - With `inside`, a link is followed only when it resolves to a place inside that directory: a `*.json` linked to a
 *   file elsewhere on the machine is refused, so that nothing outside a results directory is read through it.
 */

import { constants as bufferConstants } from 'node:buffer'
import { constants, type Stats } from 'node:fs'
import { lstat, open, readlink, realpath, stat } from 'node:fs/promises'
import { sep } from 'node:path'
import { CodedError } from './coded-error.ts'
import { fsErrorCode, fsProblem } from './fs-problem.ts'
import { escapeControls } from './one-line.ts'

/** A file that was not read, with why: `file` is the path as given, `reason` says what kind of problem. */
/** `code`: the errno code when the file system refused (ENOENT for a file that is not there), else null. */
export class FileRefusedError extends CodedError<string | null> {
  override name = 'FileRefusedError'
  readonly file: string
  readonly reason: string
  constructor(file: string, reason: string, options?: { cause?: unknown }) {
    super(fsErrorCode(options?.cause), `${file}: ${reason}`, options)
    this.file = file
    this.reason = reason
  }
}

export interface RegularFileLimits {
  /** The most bytes the file may hold; a larger one is refused unread. */
  maxBytes: number
  /** A directory the file must stay inside: a link leading out of it is refused (links inside it are followed). */
  inside?: string
}

/** What a file that is not a regular file is, in words. */
function kindOf(info: Stats): string {
  if (info.isFIFO()) return 'a FIFO (named pipe)'
  if (info.isSocket()) return 'a socket'
  if (info.isCharacterDevice()) return 'a character device'
  if (info.isBlockDevice()) return 'a block device'
  if (info.isDirectory()) return 'a directory'
  return 'not a regular file'
}

const CHUNK_BYTES = 1024 * 1024

/**
 * What one string holds (~512 MiB): the bound for a file read whole that has no smaller natural one (a monitor log,
 * a report's JSON). It turns what would fail inside V8 after reading it all into a refusal naming the file.
 */
export const ONE_STRING_MAX_BYTES = bufferConstants.MAX_STRING_LENGTH

const MIB = 1024 * 1024
const mib = (bytes: number) => `${Number((bytes / MIB).toFixed(1))} MiB`

/** @param bytes the file's size; null when it grew past the bound while read. */
function tooLarge(bytes: number | null, maxBytes: number): string {
  const limit = `the ${mib(maxBytes)} such a file may hold: not read`
  return bytes === null ? `grew while read, past ${limit}` : `${mib(bytes)} (${bytes} bytes), more than ${limit}`
}

/** Refuses `file` when it is a link that resolves outside `inside` (or nowhere). */
async function checkLinkInside(file: string, inside: string): Promise<void> {
  const target = escapeControls(await readlink(file).catch(() => '?'))
  const resolved = await realpath(file).catch((error: unknown) => {
    const why =
      fsErrorCode(error) === 'ENOENT' ? 'which does not exist' : `which cannot be followed (${fsProblem(error)})`
    throw new FileRefusedError(file, `a link to '${target}', ${why}`, { cause: error })
  })
  const root = await realpath(inside)
  if (resolved !== root && !resolved.startsWith(root.endsWith(sep) ? root : `${root}${sep}`))
    throw new FileRefusedError(file, `a link to '${target}', outside ${inside}: links are followed only inside it`)
}

async function readBounded(file: string, maxBytes: number): Promise<Buffer> {
  const handle = await open(file, constants.O_RDONLY | constants.O_NONBLOCK)
  try {
    const opened = await handle.stat()
    if (!opened.isFile()) throw new FileRefusedError(file, `${kindOf(opened)}, not a regular file: not read`)
    if (opened.size > maxBytes) throw new FileRefusedError(file, tooLarge(opened.size, maxBytes))
    const chunks: Buffer[] = []
    let total = 0
    for (;;) {
      const chunk = Buffer.allocUnsafe(Math.min(CHUNK_BYTES, maxBytes + 1 - total))
      const { bytesRead } = await handle.read(chunk, 0, chunk.length, null)
      if (bytesRead === 0) break
      chunks.push(chunk.subarray(0, bytesRead))
      total += bytesRead
      if (total > maxBytes) throw new FileRefusedError(file, tooLarge(null, maxBytes))
    }
    return Buffer.concat(chunks, total)
  } finally {
    await handle.close()
  }
}

/**
 * The text of `file` (UTF-8), read as the module comment says.
 * @throws FileRefusedError naming the file and the problem: not there, not a regular file, too large, a link out of
 * `inside`, or what the file system said (permission denied, ...).
 */
export async function readRegularFile(file: string, limits: RegularFileLimits): Promise<string> {
  try {
    const link = await lstat(file)
    if (link.isSymbolicLink() && limits.inside !== undefined) await checkLinkInside(file, limits.inside)
    const info = await stat(file)
    if (!info.isFile()) throw new FileRefusedError(file, `${kindOf(info)}, not a regular file: not read`)
    if (info.size > limits.maxBytes) throw new FileRefusedError(file, tooLarge(info.size, limits.maxBytes))
    return (await readBounded(file, limits.maxBytes)).toString('utf8')
  } catch (error) {
    if (error instanceof FileRefusedError) throw error
    throw new FileRefusedError(file, fsProblem(error), { cause: error })
  }
}
