/**
 * An append that is whole or absent: a file others append to (GitHub's step summary, where each step's writers append
 * in turn) must not keep half a report that a full disk cut mid-line. The length before is taken from the open file;
 * a write that fails is undone by truncating back to it.
 */
import { open } from 'node:fs/promises'

/** An append that failed; the fs error is the cause. */
export class AppendError extends Error {
  override name = 'AppendError'
  /** Whether the file is as it was before (false: the write failed and so did the truncate back). */
  readonly restored: boolean
  constructor(file: string, cause: unknown, restored: boolean) {
    super(`cannot append to ${file}: ${(cause as Error)?.message ?? String(cause)}`, { cause })
    this.restored = restored
  }
}

/**
 * Appends `text` to `file` (made when missing), flushed.
 * @throws AppendError; after a failed write the file is as long as it was before, unless `restored` says otherwise.
 */
export async function appendWhole(file: string, text: string): Promise<void> {
  const handle = await open(file, 'a').catch((error: unknown) => {
    throw new AppendError(file, error, true)
  })
  try {
    const before = (await handle.stat()).size
    try {
      await handle.writeFile(text)
      await handle.sync()
    } catch (error) {
      const restored = await handle.truncate(before).then(
        () => true,
        () => false,
      )
      throw new AppendError(file, error, restored)
    }
  } finally {
    await handle.close()
  }
}
