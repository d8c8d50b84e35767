import { randomBytes } from 'node:crypto'
import { link, open, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import { fsProblem } from './fs-problem.ts'

/**
 * Writes a file so that readers see either nothing or the whole content, also across a crash: the bytes go to a
 * temporary file in the same directory, are flushed to disk, then renamed over the target (rename is atomic within
 * one filesystem), and the directory entry is flushed too.
 * @throws the underlying fs error (with the target path in its message); the temporary file is removed on failure.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  await publish(path, data, (temporary) => rename(temporary, path))
}

/**
 * As writeFileAtomic, but never replaces a file: the complete temporary file is hard-linked to `path`, which fails
 * when `path` exists (atomically, also against a concurrent writer). Returns false, writing nothing, in that case.
 * @throws the underlying fs error for anything else; the temporary file is removed in every case.
 */
export async function writeFileAtomicNew(path: string, data: string | Uint8Array): Promise<boolean> {
  try {
    await publish(path, data, async (temporary) => {
      await link(temporary, path)
      await rm(temporary, { force: true })
    })
    return true
  } catch (error) {
    if (((error as Error).cause as NodeJS.ErrnoException | undefined)?.code === 'EEXIST') return false
    throw error
  }
}

/**
 * Writes `data` to a flushed temporary file beside `path`, lets `place` put it at `path` (rename or link), then flushes
 * the directory entry. The temporary file is gone afterwards whatever happened.
 * @throws Error naming `path`, with the fs error as its cause.
 */
async function publish(
  path: string,
  data: string | Uint8Array,
  place: (temporary: string) => Promise<unknown>,
): Promise<void> {
  const temporary = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await open(temporary, 'wx')
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await place(temporary)
  } catch (error) {
    await rm(temporary, { force: true })
    // The problem in words, not Node's message: that names the temporary file, or no file at all (a full disk's write).
    throw new Error(`could not write ${path}: ${fsProblem(error)}`, { cause: error })
  }
  await syncDirectory(dirname(path))
}

async function syncDirectory(directory: string): Promise<void> {
  const handle = await open(directory, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
