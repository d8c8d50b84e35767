import { randomBytes } from 'node:crypto'
import { closeSync, fsyncSync, openSync, renameSync, rmSync, writeSync } from 'node:fs'
import { dirname, join } from 'node:path'

/**
 * writeFileAtomic (atomic-write.ts) for signal and exit handlers, where nothing asynchronous runs: a flushed temporary
 * file beside `path`, renamed over it.
 * @throws Error naming `path`, with the fs error as its cause; the temporary file is removed on failure.
 */
export function writeFileAtomicSync(path: string, data: string): void {
  const temporary = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const fd = openSync(temporary, 'wx')
    try {
      writeSync(fd, data)
      fsyncSync(fd)
    } finally {
      closeSync(fd)
    }
    renameSync(temporary, path)
  } catch (error) {
    rmSync(temporary, { force: true })
    throw new Error(`could not write ${path}: ${(error as Error).message}`, { cause: error })
  }
}
