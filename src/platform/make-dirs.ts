/**
 * `mkdir -p`, one level at a time. Not Node's `recursive: true`: where a parent exists but refuses a child with ENOENT
 * (/proc, /sys), Node's recursive mkdir retries that parent forever; here the first level that cannot be made throws.
 */
import { mkdirSync, statSync } from 'node:fs'
import { mkdir, stat } from 'node:fs/promises'
import { dirname, resolve } from 'node:path'

const ignoreExisting = (error: NodeJS.ErrnoException) => {
  if (error.code !== 'EEXIST') throw error
}

/** @throws the fs error of the first level that cannot be made. */
export function makeDirsSync(dir: string): void {
  const missing: string[] = []
  for (let at = resolve(dir); !statSync(at, { throwIfNoEntry: false }); at = dirname(at)) {
    missing.unshift(at)
    if (dirname(at) === at) break
  }
  for (const level of missing)
    try {
      mkdirSync(level)
    } catch (error) {
      ignoreExisting(error as NodeJS.ErrnoException)
    }
}

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  )

/** @throws the fs error of the first level that cannot be made. */
export async function makeDirs(dir: string): Promise<void> {
  const missing: string[] = []
  for (let at = resolve(dir); !(await exists(at)); at = dirname(at)) {
    missing.unshift(at)
    if (dirname(at) === at) break
  }
  for (const level of missing) await mkdir(level).catch(ignoreExisting)
}
