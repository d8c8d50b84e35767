/**
 * sha256 of files' bytes, and of the source files under folders: an input's identity (src/input/identity.ts),
 * a kept run's input and the version of the code that measured it (src/engine/run-keys.ts).
 */
import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { readdir, readFile, stat } from 'node:fs/promises'
import { join, relative } from 'node:path'

/** sha256 (hex) of the files' bytes, concatenated in the order given. */
export async function sha256OfFiles(files: readonly string[]): Promise<string> {
  const hash = createHash('sha256')
  for (const file of files) for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}

const byStamp = new Map<string, Promise<string>>()

/**
 * sha256 of one file, remembered for this process by path, size and mtime: every measurement of a suite names its
 * input's hash, and a multi-gigabyte sample is read once.
 */
export async function sha256OfFile(file: string): Promise<string> {
  const info = await stat(file)
  const stamp = `${file}\u0000${info.size}\u0000${info.mtimeMs}`
  let known = byStamp.get(stamp)
  if (!known) {
    known = sha256OfFiles([file])
    byStamp.set(stamp, known)
    known.catch(() => byStamp.delete(stamp))
  }
  return known
}

async function filesUnder(root: string, dir: string, keep: (name: string) => boolean, out: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === '__pycache__' || entry.name === 'node_modules') continue
    const path = join(dir, entry.name)
    if (entry.isDirectory()) await filesUnder(root, path, keep, out)
    else if (entry.isFile() && keep(entry.name)) out.push(relative(root, path))
  }
}

/**
 * sha256 over the names and bytes of the files under `paths` (folders walked, dot folders and caches left out) whose
 * names `keep` accepts, relative to `root` and in sorted order, so the hash follows the sources and not where they
 * sit. A path that does not exist adds nothing.
 */
export async function sha256OfTree(
  root: string,
  paths: readonly string[],
  keep: (name: string) => boolean,
): Promise<string> {
  const files: string[] = []
  for (const p of paths) {
    const full = join(root, p)
    const info = await stat(full).catch(() => null)
    if (info?.isDirectory()) await filesUnder(root, full, keep, files)
    else if (info?.isFile()) files.push(p)
  }
  const hash = createHash('sha256')
  for (const file of files.sort()) {
    hash.update(`${file}\u0000`)
    hash.update(await readFile(join(root, file)))
    hash.update('\u0000')
  }
  return hash.digest('hex')
}
