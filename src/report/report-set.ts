/**
 * A report set replaced whole or not at all: a reader of the reports directory (an artifact upload, Perfetto, a
 * dashboard) finds the earlier run's files or this run's, never some of each.
 *
 * How: every file is written and flushed into a staging directory inside the reports directory
 * (`.report-set-<host>-<pid>-<hex>`). A full disk or any other write error stops there: the staging directory is
 * removed and the earlier set was never touched. Then the swap, renames only (no space needed): the earlier set's
 * files are moved into the staging directory, then the new ones into their places; a rename that fails moves every
 * file back. Last, the staging directory (now the earlier set) is removed.
 *
 * Why not a swap of the directory itself (write a sibling directory, rename it over the old one): the reports
 * directory may hold the user's own files beside the reports (out-dir.ts allows it), it may be a mount point, or sit
 * in a directory this user cannot write; each stops a directory swap, and none stops this. The cost: a process killed
 * during the swap's renames (microseconds) leaves part of one set in place, the rest in its staging directory; never
 * files of two runs together, as the earlier set is moved out before the new one moves in. The next write removes a
 * staging directory whose process is gone (same host, pid not running) and says so.
 */
import { randomBytes } from 'node:crypto'
import { mkdir, open, readdir, rename, rm } from 'node:fs/promises'
import { hostname } from 'node:os'
import { join } from 'node:path'
import { pidAlive } from '../platform/pid-alive.ts'

const STAGING_PREFIX = '.report-set-'
const STAGING = /^\.report-set-(.+)-(\d+)-[0-9a-f]{12}$/
const PREVIOUS = '.previous'

/** A report file that could not be written or moved into place; the earlier set is as it was unless `restored` is false. */
export class ReportSetError extends Error {
  override name = 'ReportSetError'
  /** The report file's path in the reports directory (never the staging copy's). */
  readonly file: string
  /** Whether the earlier set is whole in its place: false only when a failed swap could not move it back. */
  readonly restored: boolean
  /** Where the earlier set's files are when they could not be moved back. */
  readonly keptIn: string | null
  constructor(file: string, cause: unknown, keptIn: string | null = null) {
    super(`${file}: ${(cause as Error)?.message ?? String(cause)}`, { cause })
    this.file = file
    this.restored = keptIn === null
    this.keptIn = keptIn
  }
}

export interface ReplacedSet {
  /** Paths of the files written, in the reports directory. */
  files: string[]
  /** Staging directories of earlier writes killed midway, removed before this one. */
  removedLeftovers: string[]
}

const hostTag = () => hostname().replace(/[^A-Za-z0-9.]+/g, '_') || 'host'

/** Staging directories of this host whose process is gone: removed. Another host's, or a live one's, are left. */
async function removeLeftovers(outDir: string): Promise<string[]> {
  const removed: string[] = []
  for (const name of await readdir(outDir)) {
    const match = STAGING.exec(name)
    if (!match || match[1] !== hostTag() || pidAlive(Number(match[2]))) continue
    await rm(join(outDir, name), { recursive: true, force: true })
    removed.push(join(outDir, name))
  }
  return removed
}

async function writeFlushed(path: string, content: string): Promise<void> {
  const handle = await open(path, 'wx')
  try {
    await handle.writeFile(content)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

async function syncDirectory(dir: string): Promise<void> {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Writes every file into `staging`. @throws ReportSetError naming the report file that failed. */
async function stage(outDir: string, staging: string, contents: ReadonlyMap<string, string>): Promise<void> {
  for (const [name, content] of contents)
    await writeFlushed(join(staging, name), content).catch((error: unknown) => {
      throw new ReportSetError(join(outDir, name), error)
    })
  await syncDirectory(staging).catch((error: unknown) => {
    throw new ReportSetError(staging, error)
  })
}

/** A rename of moveAll that failed: which entry, and the fs error as the cause. */
class MoveFailed extends Error {
  readonly entry: string
  constructor(entry: string, cause: unknown) {
    super(`${entry}: ${(cause as Error)?.message}`, { cause })
    this.entry = entry
  }
}

/** Moves `names` from one directory to another, in order; on a failure, the ones moved so far go back. */
async function moveAll(names: readonly string[], from: string, to: string): Promise<void> {
  const moved: string[] = []
  for (const name of names) {
    try {
      await rename(join(from, name), join(to, name))
    } catch (error) {
      for (const back of moved.reverse()) await rename(join(to, back), join(from, back)).catch(() => undefined)
      throw new MoveFailed(name, error)
    }
    moved.push(name)
  }
}

/**
 * The earlier set into `staging/.previous`, then the new files from `staging` into `outDir`.
 * @throws ReportSetError naming the file whose rename failed, every file moved back (or where the earlier set is).
 */
async function swap(outDir: string, staging: string, names: readonly string[], setNames: readonly string[]) {
  const previous = join(staging, PREVIOUS)
  await mkdir(previous)
  const present = new Set(await readdir(outDir))
  const earlier = setNames.filter((name) => present.has(name))
  await moveAll(earlier, outDir, previous).catch((error: MoveFailed) => {
    throw new ReportSetError(join(outDir, error.entry), error.cause)
  })
  try {
    await moveAll(names, staging, outDir)
  } catch (error) {
    const failed = error as MoveFailed
    const back = await moveAll(earlier, previous, outDir).then(
      () => null,
      () => previous,
    )
    throw new ReportSetError(join(outDir, failed.entry), failed.cause, back)
  }
}

/**
 * Replaces the report set in `outDir` (the files of `setNames` there) by `contents`, as the module comment says.
 * @throws ReportSetError naming the file that failed (`outDir` itself when it could not be listed or take the staging
 * directory); the earlier set is then as it was (`restored`), and nothing of this write is left behind.
 */
export async function replaceReportSet(
  outDir: string,
  contents: ReadonlyMap<string, string>,
  setNames: readonly string[],
): Promise<ReplacedSet> {
  try {
    return await replace(outDir, contents, setNames)
  } catch (error) {
    throw error instanceof ReportSetError ? error : new ReportSetError(outDir, error)
  }
}

async function replace(
  outDir: string,
  contents: ReadonlyMap<string, string>,
  setNames: readonly string[],
): Promise<ReplacedSet> {
  const removedLeftovers = await removeLeftovers(outDir)
  const staging = join(outDir, `${STAGING_PREFIX}${hostTag()}-${process.pid}-${randomBytes(6).toString('hex')}`)
  await mkdir(staging)
  try {
    await stage(outDir, staging, contents)
    await swap(outDir, staging, [...contents.keys()], setNames)
  } catch (error) {
    // Unless a failed swap left the earlier set in the staging directory: the error says where.
    if (!(error instanceof ReportSetError && !error.restored)) await rm(staging, { recursive: true, force: true })
    throw error
  }
  // The earlier set; a failure here leaves a hidden directory that the next write removes.
  await rm(staging, { recursive: true, force: true }).catch(() => undefined)
  await syncDirectory(outDir)
  return { files: [...contents.keys()].map((name) => join(outDir, name)), removedLeftovers }
}
