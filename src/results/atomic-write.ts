import { randomBytes } from 'node:crypto'
import { open, rename, rm } from 'node:fs/promises'
import { dirname, join } from 'node:path'

/**
 * Writes a file so that readers see either nothing or the whole content, also across a crash: the bytes go to a
 * temporary file in the same directory, are flushed to disk, then renamed over the target (rename is atomic within
 * one filesystem), and the directory entry is flushed too.
 * @throws the underlying fs error (with the target path in its message); the temporary file is removed on failure.
 */
export async function writeFileAtomic(path: string, data: string | Uint8Array): Promise<void> {
  const temporary = join(dirname(path), `.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await open(temporary, 'wx')
    try {
      await handle.writeFile(data)
      await handle.sync()
    } finally {
      await handle.close()
    }
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw new Error(`could not write ${path}: ${(error as Error).message}`, { cause: error })
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
