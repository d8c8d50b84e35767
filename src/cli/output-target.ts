/**
 * Where a command may write a file it was asked for (`--json FILE`): never inside a run directory it reads, nor in any
 * folder named as a run (results/<runId>/...), nor over an existing result record. A run directory's files are its
 * measurement (records, journal, logs): one written over reads as a lost or interrupted run, and its GPU time is gone
 * (issue 47: `capacity RUN --json RUN/capacity-1-GPU.json` replaced the run's own record with the refit).
 */
import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, resolve, sep } from 'node:path'
import { isRunId } from '../results/run-id.ts'
import { RECORD_MAX_BYTES } from '../results/store.ts'
import { UsageError } from './usage-error.ts'

/** The path as the file system resolves it, its folders' links followed (a file not there yet: its folder's). */
function realPath(path: string): string {
  const full = resolve(path)
  if (existsSync(full)) return realpathSync(full)
  const parent = dirname(full)
  return parent === full ? full : resolve(realPath(parent), basename(full))
}

/** The run directory `target` lies in: one of `readDirs`, or a folder above it named as a run; null for none. */
export function runDirHolding(target: string, readDirs: readonly string[]): string | null {
  const file = realPath(target)
  for (const dir of readDirs) {
    const root = realPath(dir)
    if (file.startsWith(root.endsWith(sep) ? root : root + sep)) return dir
  }
  for (let dir = dirname(file); dir !== dirname(dir); dir = dirname(dir)) if (isRunId(basename(dir))) return dir
  return null
}

/**
 * Whether `file` holds a result record (the store's JSON: a kind and runs). Only a regular file within the store's own
 * bound is read: a FIFO there would block the command, and a huge file is no record.
 */
function holdsRecord(file: string): boolean {
  try {
    const info = statSync(file)
    if (!info.isFile() || info.size > RECORD_MAX_BYTES) return false
    const json = JSON.parse(readFileSync(file, 'utf8')) as { kind?: unknown; runs?: unknown }
    return typeof json.kind === 'string' && Array.isArray(json.runs)
  } catch {
    return false
  }
}

/**
 * Refuses `option`'s `target` where writing it would replace part of a measurement, before anything is read or written.
 * @throws UsageError naming the option, the file, the run directory or record, and what to give instead
 */
export function checkOutputTarget(command: string, option: string, target: string, readDirs: readonly string[]): void {
  const runDir = runDirHolding(target, readDirs)
  if (runDir !== null)
    throw new UsageError(
      `${command}: ${option} '${target}' is inside the run directory '${runDir}', whose records and runs it could replace; nothing was written: give a file outside it (e.g. ./${command}-refit.json)`,
    )
  if (existsSync(target) && holdsRecord(target))
    throw new UsageError(
      `${command}: ${option} '${target}' is a result record, which the refit would replace; nothing was written: give a new file`,
    )
}
