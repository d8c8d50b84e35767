// Files under a directory that a live process is still writing. `readdirSync(dir, { recursive: true })` throws ENOENT
// when a folder it listed is gone before it descends into it (a run's output pruned, a temporary folder renamed into
// place): a clean-clone CI failed so, counting a campaign's kept runs while the pipeline ran. Here a folder that
// vanishes mid-walk is simply not there.
import { type Dirent, readdirSync } from 'node:fs'
import { join } from 'node:path'

/** Paths (relative to `root`) of the files under it whose path ends with `suffix`; none where `root` is missing. */
export function liveFilesEndingWith(root: string, suffix: string): string[] {
  const found: string[] = []
  const walk = (rel: string) => {
    let entries: Dirent[]
    try {
      entries = readdirSync(join(root, rel), { withFileTypes: true })
    } catch (error) {
      // Gone (or replaced by a file) since its parent was listed: nothing under it to count.
      if ((error as NodeJS.ErrnoException).code === 'ENOENT' || (error as NodeJS.ErrnoException).code === 'ENOTDIR')
        return
      throw error
    }
    for (const e of entries) {
      const path = rel ? join(rel, e.name) : e.name
      if (e.isDirectory()) walk(path)
      else if (path.endsWith(suffix)) found.push(path)
    }
  }
  walk('')
  return found
}
