/**
 * Whether a directory is a run directory, known by what it holds and never by its name: a pinned run ID
 * (VIRNUCPRO_BENCH_RUN_ID=pin1, `vnp-small` in docs/results) is as much a run as a generated one, and a folder named
 * like a run ID that holds nothing of one is none (issue 58). A run directory holds, from its invocation's first
 * moment on, at least one of:
 * - a result record (store.ts): a `*.json` at its top with a kind and runs, what every reader reads;
 * - its work directory's state (run-state.ts: `work/state.json`) or writer lock (writer-lock.ts: `work/.writer.json`),
 *   written before the first run, so a run interrupted before any record is known too;
 * - a run journal (run-journal.ts: `work/measurements/<key>.json`).
 * Each is told by a field of its own as well as its name (a state's format, state and key; a lock's token; a journal
 * entry's purpose), so a `work/state.json` another tool left in a folder of the user's makes no run of it.
 * A campaign task's work directory is `work/<task>/` (src/engine/context.ts workDirOf), with the same files.
 * Synchronous, and every file read is a regular file within the store's bound: the commands that ask (output-target.ts,
 * src/report/out-dir.ts) ask before anything else happens, and a FIFO on the way must not block them.
 */
import { closeSync, type Dirent, existsSync, openSync, readdirSync, readSync, realpathSync, statSync } from 'node:fs'
import { basename, dirname, join, resolve } from 'node:path'
import { MEASUREMENTS_DIR } from './run-journal.ts'
import { STATE_FILE } from './run-state.ts'
import { RECORD_MAX_BYTES } from './store.ts'
import { WRITER_FILE } from './writer-lock.ts'

/** What marks a directory as a run directory: the path that holds it (relative to the directory) and what it is. */
export interface RunDirMark {
  dir: string
  /** `capacity-1-GPU.json, a result record`, `work/state.json, a run's state`, ... */
  holds: string
}

/** Record files looked at per directory: a folder of thousands of JSON files is read no further than this. */
const MAX_JSON_FILES_READ = 200
/** Bytes of a file's head read to tell a record from other JSON before parsing the whole. */
const HEAD_BYTES = 4096

const listing = (dir: string): Dirent[] => {
  try {
    return readdirSync(dir, { withFileTypes: true })
  } catch {
    return []
  }
}

/** The first bytes of a regular file, or null (not a regular file, unreadable). A FIFO is never opened. */
function head(file: string, bytes: number): string | null {
  let fd: number | null = null
  try {
    const info = statSync(file)
    if (!info.isFile()) return null
    fd = openSync(file, 'r')
    const buffer = Buffer.alloc(Math.min(bytes, info.size))
    const read = readSync(fd, buffer, 0, buffer.length, 0)
    return buffer.toString('utf8', 0, read)
  } catch {
    return null
  } finally {
    if (fd !== null) closeSync(fd)
  }
}

/**
 * Whether `file` holds a result record (the store's JSON: a kind and runs). Only a regular file within the store's own
 * bound is read, and only when its head names a kind: a FIFO there would block the command, and a huge file is no record.
 */
export function holdsRecord(file: string): boolean {
  try {
    const info = statSync(file)
    if (!info.isFile() || info.size > RECORD_MAX_BYTES) return false
    if (!head(file, HEAD_BYTES)?.includes('"kind"')) return false
    const json = JSON.parse(head(file, info.size) ?? '') as { kind?: unknown; runs?: unknown }
    return typeof json.kind === 'string' && Array.isArray(json.runs)
  } catch {
    return false
  }
}

const isDir = (path: string) => statSync(path, { throwIfNoEntry: false })?.isDirectory() === true

/** A small JSON file's fields, or null (not a regular file, too large, not a JSON object). */
function smallJson(file: string): Record<string, unknown> | null {
  const text = head(file, HEAD_BYTES * 16)
  try {
    const json = text === null ? null : (JSON.parse(text) as unknown)
    return typeof json === 'object' && json !== null && !Array.isArray(json) ? (json as Record<string, unknown>) : null
  } catch {
    return null
  }
}

/**
 * Whether a work directory's file is the run's own and not a file of the same common name another tool left in a
 * `work/` folder of the user's: a state names its format, state and key; a lock its token; a journal its purpose.
 */
const isRunState = (file: string) => ['format', 'state', 'key'].every((k) => k in (smallJson(file) ?? {}))
const isWriterLock = (file: string) => 'token' in (smallJson(file) ?? {})
function isJournal(dir: string): boolean {
  const names = listing(dir).filter((e) => e.name.endsWith('.json') && !e.isDirectory())
  return names.slice(0, MAX_JSON_FILES_READ).some((e) => head(join(dir, e.name), HEAD_BYTES)?.includes('"purpose"'))
}

/** What a work directory (`work` or `work/<task>`, relative to the run directory) holds of a run, or null. */
function workMark(runDir: string, work: string): string | null {
  const at = (name: string) => join(runDir, work, name)
  if (isRunState(at(STATE_FILE))) return `${work}/${STATE_FILE}, a run's state`
  if (isWriterLock(at(WRITER_FILE))) return `${work}/${WRITER_FILE}, a run's writer lock`
  if (isJournal(at(MEASUREMENTS_DIR))) return `${work}/${MEASUREMENTS_DIR}/, a run journal`
  return null
}

/** What in `dir` shows it is a run directory (see the file's comment), or null when nothing does. */
export function runDirMark(dir: string): string | null {
  const entries = listing(dir)
  const records = entries.filter((e) => e.name.endsWith('.json') && !e.name.startsWith('.') && !e.isDirectory())
  for (const e of records.slice(0, MAX_JSON_FILES_READ))
    if (holdsRecord(join(dir, e.name))) return `${e.name}, a result record`
  if (!isDir(join(dir, 'work'))) return null
  const own = workMark(dir, 'work')
  if (own) return own
  for (const task of listing(join(dir, 'work'))) {
    if (!task.isDirectory()) continue
    const mark = workMark(dir, `work/${task.name}`)
    if (mark) return mark
  }
  return null
}

/** The path as the file system resolves it, its folders' links followed (a file not there yet: its folder's). */
export function realPath(path: string): string {
  const full = resolve(path)
  if (existsSync(full)) return realpathSync(full)
  const parent = dirname(full)
  return parent === full ? full : resolve(realPath(parent), basename(full))
}

/**
 * The run directory `path` is, or lies in: the nearest of `path` and the folders above it that holds what a run
 * directory holds (links followed: realPath); null for none. `path` need not exist (a file about to be written).
 */
export function enclosingRunDir(path: string): RunDirMark | null {
  for (let dir = realPath(path); ; dir = dirname(dir)) {
    const holds = runDirMark(dir)
    if (holds !== null) return { dir, holds }
    if (dirname(dir) === dir || basename(dir) === '') return null
  }
}
