/**
 * What a history file must be before SQLite opens it: SQLite takes an empty file for a new database and would write a
 * whole schema into a 0-byte file (a copy that failed: `git show ... > history.sqlite`), and its first write to
 * another tool's database changes that file's header. Checked from the bytes, so a refused file is never opened.
 */
import { accessSync, closeSync, constants, openSync, readSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { pathToFileURL } from 'node:url'
import { HistoryError, isReadOnly } from './errors.ts'
import { checkSchema, SCHEMA_VERSION } from './schema.ts'

/** Every SQLite 3 database starts with these 16 bytes (sqlite.org/fileformat.html, "The Database Header"). */
const SQLITE_MAGIC = Buffer.from('SQLite format 3\0', 'latin1')

function firstBytes(file: string, count: number): Buffer {
  const fd = openSync(file, 'r')
  try {
    const buffer = Buffer.alloc(count)
    return buffer.subarray(0, readSync(fd, buffer, 0, count, 0))
  } finally {
    closeSync(fd)
  }
}

/**
 * @throws HistoryError HISTORY_UNREADABLE when `file` exists and is a directory, empty, unreadable or not an SQLite
 * database, naming it and what to do; nothing is written.
 */
export function checkHistoryFile(file: string): void {
  const info = statSync(file, { throwIfNoEntry: false })
  if (info === undefined) return
  const refuse = (problem: string, fix: string): never => {
    throw new HistoryError('HISTORY_UNREADABLE', file, `history database ${file} ${problem}: ${fix}`)
  }
  if (info.isDirectory()) refuse('is a directory', 'name the history file in it (history.sqlite)')
  if (info.size === 0)
    refuse(
      'is empty (0 bytes; a copy that failed?)',
      'restore it from where it came from, or delete it to start a new history',
    )
  let head: Buffer = Buffer.alloc(0)
  try {
    head = firstBytes(file, SQLITE_MAGIC.length)
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    refuse(`cannot be read (${code})`, 'make it readable, or name another file')
  }
  if (!head.equals(SQLITE_MAGIC))
    refuse('is not an SQLite database', 'name a virnucpro-bench history instead (history add creates one)')
}

/**
 * Whether a write to the history at `file` can succeed: the file (when it exists) and its directory (SQLite writes its
 * journal and WAL files beside it), or the nearest existing parent for a file still to be made, writable.
 * @throws HistoryError HISTORY_READONLY naming the place and what to do.
 */
export function checkHistoryWritable(file: string): void {
  const problem = whyNotWritable(file)
  if (problem === null) return
  const code = (problem.error as NodeJS.ErrnoException).code ?? String(problem.error)
  throw new HistoryError(
    'HISTORY_READONLY',
    file,
    `history database ${file} cannot be written: ${problem.place} is read-only (${code}): make it writable, or give --db a writable copy; nothing was added`,
  )
}

/** The first of the file and its directory (or nearest existing parent) that this process cannot write, and why. */
export function whyNotWritable(file: string): { place: string; error: unknown } | null {
  let dir = dirname(file)
  while (!statSync(dir, { throwIfNoEntry: false }) && dirname(dir) !== dir) dir = dirname(dir)
  const places: [string, string, number][] = [
    [file, file, constants.W_OK],
    [dir, `its directory ${dir}`, constants.W_OK | constants.X_OK],
  ]
  for (const [path, place, mode] of places) {
    if (path === file && !statSync(file, { throwIfNoEntry: false })) continue
    try {
      accessSync(path, mode)
    } catch (error) {
      return { place, error }
    }
  }
  return null
}

/**
 * A history this process cannot write, opened to read only. Immutable: SQLite then needs no -shm file beside a WAL
 * database, which it could not make in a read-only directory; nobody writing is what the permissions say.
 */
export function openReadOnly(file: string): DatabaseSync {
  const url = pathToFileURL(file)
  url.searchParams.set('immutable', '1')
  return new DatabaseSync(url, { readOnly: true })
}

/** An older schema read-only: it cannot be brought up to date, and today's queries would not find its tables. */
export function checkCurrent(db: DatabaseSync, file: string): void {
  const version = checkSchema(db, file)
  if (version < SCHEMA_VERSION)
    throw new HistoryError(
      'HISTORY_READONLY',
      file,
      `history database ${file} has schema version ${version} and cannot be written to bring it to version ${SCHEMA_VERSION}: make it and its directory writable once, or read it with the virnucpro-bench that wrote it`,
    )
}

/** SQLite's refusal of a file as one line that names the file and what to do. */
export function unusable(file: string, error: unknown): HistoryError {
  const why = isReadOnly(error)
    ? 'make it and its directory writable (an older schema is brought up to date in place)'
    : 'name a virnucpro-bench history instead (history add creates one)'
  return new HistoryError(
    'HISTORY_UNREADABLE',
    file,
    `cannot use history database ${file}: ${message(error)}: ${why}`,
    {
      cause: error,
    },
  )
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))
