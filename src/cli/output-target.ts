/**
 * Where a command may write what it was asked to (`capacity --json FILE`, `report --out DIR`, `history changes
 * --json-file FILE`, `fixtures ... --out DIR`, `monitor --out FILE`, `history add --db FILE`): never inside a run
 * directory, nor over one, nor over an existing result record. A run directory's files are its measurement (records,
 * journal, state, logs): one written over reads as a lost or interrupted run, its GPU time gone (issue 47: `capacity
 * RUN --json RUN/capacity-1-GPU.json` replaced the run's own record with the refit), and a file added beside its
 * records is read as one of them. A run directory is known by what it holds (src/results/run-dir-marks.ts), never by
 * its name (issue 58: a pinned run ID's `pin1/work/state.json` was written over and the run read as having none).
 */
import { existsSync } from 'node:fs'
import { sep } from 'node:path'
import { enclosingRunDir, holdsRecord, realPath, runDirMark } from '../results/run-dir-marks.ts'
import { UsageError } from './usage-error.ts'

/** A run directory a target lies in (or is), and what shows it is one. */
export interface HoldingRunDir {
  dir: string
  /** What it holds that makes it a run directory (`work/state.json, a run's state`), or that the command reads it. */
  holds: string
}

/**
 * The run directory `target` is or lies in: one of `readDirs` (the run directories the command reads, as given), or
 * the nearest folder at or above it that holds what a run directory holds; null for none.
 */
export function runDirHolding(target: string, readDirs: readonly string[]): HoldingRunDir | null {
  const file = realPath(target)
  for (const dir of readDirs) {
    const root = realPath(dir)
    if (file === root || file.startsWith(root.endsWith(sep) ? root : root + sep))
      return { dir, holds: runDirMark(root) ?? 'which this command reads' }
  }
  const found = enclosingRunDir(file)
  return found && { dir: found.dir, holds: found.holds }
}

/** How the target is named to the user, and what to give instead. */
export interface OutputTarget {
  /** `capacity`, `report`, `history changes`. */
  command: string
  /** `--json`, `--out`. */
  option: string
  target: string
  /** What to give instead, as an example: `./capacity-refit.json`, `a directory outside it, e.g. ./reports`. */
  instead: string
}

/**
 * Refuses `option`'s `target` where writing it would land inside, or over, a run directory (see the file's comment),
 * or over a result record anywhere, before anything is read or written.
 * @param readDirs the run directories the command reads (a target inside them is refused whatever they hold)
 * @throws UsageError naming the option, the path, the run directory and what it holds, and what to give instead
 */
export function checkOutputTarget(o: OutputTarget, readDirs: readonly string[] = []): void {
  const named = `${o.command}: ${o.option} '${o.target}'`
  if (existsSync(o.target) && holdsRecord(o.target))
    throw new UsageError(`${named} is a result record, which it would replace; nothing was written: give ${o.instead}`)
  const run = runDirHolding(o.target, readDirs)
  if (run === null) return
  const where = realPath(o.target) === realPath(run.dir) ? 'is' : 'is inside'
  throw new UsageError(
    `${named} ${where} the run directory '${run.dir}' (${run.holds}): there it could replace part of the measurement or be read as one of its files; nothing was written: give ${o.instead}`,
  )
}
