/**
 * Whether reports may go to a directory without touching anything of the user's (git's and hyperfine's rule: nothing
 * is overwritten that the tool did not write, unless asked). Allowed: a directory that does not exist yet (its
 * nearest existing parent writable), one holding none of the report names, or one earlier reports went to (its
 * summary.json is a report's). Refused: a file, a place that cannot be written, other files of the report names, and
 * a place inside or over a run directory (known by what it holds: src/results/run-dir-marks.ts), whose readers would
 * take the reports' JSON for records of the run (issue 58).
 */
import { constants } from 'node:fs'
import { access, lstat, readdir, readlink, stat } from 'node:fs/promises'
import { dirname, join, resolve } from 'node:path'
import { escapeControls } from '../platform/one-line.ts'
import { ONE_STRING_MAX_BYTES, readRegularFile } from '../platform/regular-file.ts'
import { enclosingRunDir, realPath } from '../results/run-dir-marks.ts'
import { ReportError } from './errors.ts'

const FIX = 'give a new or empty directory, or one earlier reports went to; nothing was written'

type PathInfo = Awaited<ReturnType<typeof stat>> | null

async function statOrNull(path: string): Promise<PathInfo> {
  return stat(path).catch(() => null)
}

async function writable(dir: string): Promise<string | null> {
  try {
    await access(dir, constants.W_OK | constants.X_OK)
    return null
  } catch (error) {
    return (error as NodeJS.ErrnoException).code ?? (error as Error).message
  }
}

/** The nearest existing ancestor of a directory still to be made, and whether it can hold it. */
async function checkNewDir(dir: string, refuse: (problem: string) => never): Promise<void> {
  let parent = dirname(dir)
  let info = await statOrNull(parent)
  while (info === null && dirname(parent) !== parent) {
    parent = dirname(parent)
    info = await statOrNull(parent)
  }
  if (info && !info.isDirectory()) refuse(`cannot be made: '${parent}' is a file`)
  const why = await writable(parent)
  if (why !== null) refuse(`cannot be made: '${parent}' is not writable (${why})`)
}

/** A summary.json that a report wrote: JSON with a numeric schemaVersion, generatedAt and counts. */
async function holdsEarlierReports(dir: string): Promise<boolean> {
  try {
    const json = JSON.parse(await readRegularFile(join(dir, 'summary.json'), { maxBytes: ONE_STRING_MAX_BYTES }))
    return typeof json?.schemaVersion === 'number' && typeof json.generatedAt === 'string' && 'counts' in json
  } catch {
    return false
  }
}

/**
 * @param label how the directory was named to the user (`--out`, `reports directory`).
 * @throws ReportError REPORT_OUT_DIR naming the directory, the problem and what to give instead.
 */
export async function checkOutDir(outDir: string, fileNames: readonly string[], label: string): Promise<void> {
  const refuse = (problem: string): never => {
    throw new ReportError('REPORT_OUT_DIR', `${label} '${outDir}' ${problem}: ${FIX}`)
  }
  const dir = resolve(outDir)
  const run = enclosingRunDir(dir)
  if (run !== null)
    throw new ReportError(
      'REPORT_OUT_DIR',
      `${label} '${outDir}' ${run.dir === realPath(dir) ? 'is' : 'is inside'} the run directory '${run.dir}' (${run.holds}), whose readers would take the reports for its records: give a directory outside every run directory; nothing was written`,
    )
  const info = await statOrNull(dir)
  // A link to nowhere: mkdir would find the link there, and the first file written would fail inside it.
  if (info === null && (await lstat(dir).catch(() => null))?.isSymbolicLink())
    refuse(`is a link to '${escapeControls(await readlink(dir).catch(() => '?'))}', which does not exist`)
  if (info === null) return checkNewDir(dir, refuse)
  if (!info.isDirectory()) refuse('is a file, not a directory')
  const why = await writable(dir)
  if (why !== null) refuse(`is not writable (${why})`)
  const present = new Set(await readdir(dir))
  const taken = fileNames.filter((name) => present.has(name))
  for (const name of taken)
    if (!(await statOrNull(join(dir, name)))?.isFile()) refuse(`holds '${name}', which is not a file`)
  if (taken.length === 0 || (await holdsEarlierReports(dir))) return
  refuse(`already holds ${taken.join(', ')}, which no earlier report wrote (no report summary.json beside them)`)
}
