/**
 * `mkdir -p`, one level at a time. Not Node's `recursive: true`: where a parent exists but refuses a child with ENOENT
 * (/proc, /sys), Node's recursive mkdir retries that parent forever; here the first level that cannot be made throws.
 */
import { mkdirSync, statSync } from 'node:fs'
import { mkdir, rmdir, stat } from 'node:fs/promises'
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

/** The first level of `dir` that does not exist yet (what makeDirs would make), or null when `dir` exists. */
export async function firstMissingLevel(dir: string): Promise<string | null> {
  let missing: string | null = null
  for (let at = resolve(dir); dirname(at) !== at; at = dirname(at)) {
    const absent = await stat(at).then(
      () => false,
      (error: NodeJS.ErrnoException) => error.code === 'ENOENT',
    )
    if (!absent) break
    missing = at
  }
  return missing
}

/**
 * After a write that failed: removes `dir` and its parents up to `top` (firstMissingLevel's answer before makeDirs),
 * each only while empty, so that nothing half-made is left and nothing that holds a file is touched.
 */
export async function removeMadeDirs(dir: string, top: string | null): Promise<void> {
  if (top === null) return
  for (let at = resolve(dir); at.length >= top.length; at = dirname(at)) {
    const removed = await rmdir(at).then(
      () => true,
      () => false,
    )
    if (!removed || at === top) return
  }
}
