/**
 * SQLite's refusals in the middle of work named as what they are, with the file and what to do: a full disk, a damaged
 * page, a read-only place, another writer, an I/O error. Never "not a history" (the file is one) and never an internal
 * error (the fix is on disk, so the CLI exits 3). SQLite's result codes (sqlite.org/rescode.html) say what happened,
 * but node:sqlite does not pass on the errno behind an I/O error: on a full tmpfs SQLite's first complaint is
 * SQLITE_IOERR_SHMSIZE (it could not size the -shm file), not SQLITE_FULL. So the space left beside the file tells a
 * full disk from another I/O error.
 */
import { statfsSync } from 'node:fs'
import { dirname } from 'node:path'
import { HistoryError, sqlitePrimaryCode } from './errors.ts'

/**
 * Below this many free bytes beside the file, an I/O error is read as a full disk: SQLite needs 32 KiB for the -shm
 * file and a WAL frame (a 4 KiB page and its header) per page a transaction changes, so a disk this close to full fails
 * the next write of any run.
 */
export const FULL_DISK_BELOW_BYTES = 1024 * 1024

/** Primary result codes of sqlite3.h that a history can meet on a bad day. */
const PRIMARY: Record<number, string> = {
  3: 'SQLITE_PERM',
  5: 'SQLITE_BUSY',
  6: 'SQLITE_LOCKED',
  8: 'SQLITE_READONLY',
  10: 'SQLITE_IOERR',
  11: 'SQLITE_CORRUPT',
  13: 'SQLITE_FULL',
  14: 'SQLITE_CANTOPEN',
  26: 'SQLITE_NOTADB',
}

/** SQLITE_IOERR_* by extended code >> 8 (sqlite3.h): which step of the I/O failed. */
const IOERR = [
  '',
  'READ',
  'SHORT_READ',
  'WRITE',
  'FSYNC',
  'DIR_FSYNC',
  'TRUNCATE',
  'FSTAT',
  'UNLOCK',
  'RDLOCK',
  'DELETE',
  'BLOCKED',
  'NOMEM',
  'ACCESS',
  'CHECKRESERVEDLOCK',
  'LOCK',
  'CLOSE',
  'DIR_CLOSE',
  'SHMOPEN',
  'SHMSIZE',
  'SHMLOCK',
  'SHMMAP',
  'SEEK',
  'DELETE_NOENT',
  'MMAP',
]

/** `SQLITE_IOERR_SHMSIZE`, `SQLITE_FULL`, or the primary name and the extended number where no name is known. */
export function sqliteCodeName(errcode: number): string {
  const primary = PRIMARY[errcode & 0xff] ?? `SQLite result ${errcode & 0xff}`
  const extended = errcode >> 8
  if (extended === 0) return primary
  if ((errcode & 0xff) === 10 && IOERR[extended]) return `${primary}_${IOERR[extended]}`
  return `${primary} (extended code ${errcode})`
}

/** Free bytes for this user where `file` is, or null when the filesystem cannot be asked. */
function freeBytesBeside(file: string): number | null {
  try {
    const fs = statfsSync(dirname(file))
    return fs.bavail * fs.bsize
  } catch {
    return null
  }
}

/** A path quoted for a POSIX shell, for commands the message suggests. */
const shellQuoted = (path: string) => `'${path.replaceAll("'", `'\\''`)}'`

/**
 * The HistoryError `error` amounts to, or null when it is no SQLite error of a bad day (a bug of ours, a schema
 * problem): the caller decides about those.
 * @param doing what the store was doing, for the message ("add run X", "read its runs").
 * @param outcome what the failure left, appended when given ("nothing of run X was added").
 */
export function sqliteFailure(file: string, error: unknown, doing: string, outcome?: string): HistoryError | null {
  const primary = sqlitePrimaryCode(error)
  if (primary === null) return null
  const errcode = (error as { errcode: number }).errcode
  const said = (error as { errstr?: string }).errstr ?? (error as Error).message
  const what = `${said} (${sqliteCodeName(errcode)}) on '${doing}'`
  const dir = dirname(file)
  const free = primary === 13 || primary === 10 ? freeBytesBeside(file) : null
  const freeText = free === null ? '' : `, ${free.toLocaleString('en-US')} bytes free in ${dir}`
  const make = (code: HistoryError['code'], text: string) =>
    new HistoryError(code, file, outcome ? `${text}; ${outcome}` : text, { cause: error })
  if (primary === 13 || (primary === 10 && free !== null && free < FULL_DISK_BELOW_BYTES))
    return make(
      'HISTORY_DISK_FULL',
      `history database ${file}: the disk is full: ${what}${freeText}: free space there, or give --db a copy on another disk`,
    )
  if (primary === 11 || primary === 26)
    return make(
      'HISTORY_DAMAGED',
      `history database ${file} is damaged: ${what}: check it with sqlite3 ${shellQuoted(file)} 'PRAGMA integrity_check'; restore it from a copy, or keep what can be read with sqlite3 ${shellQuoted(file)} .recover | sqlite3 recovered.sqlite`,
    )
  if (primary === 8 || primary === 3)
    return make(
      'HISTORY_READONLY',
      `history database ${file} cannot be written: ${what}: make it and its directory writable, or give --db a writable copy`,
    )
  if (primary === 5 || primary === 6)
    return make(
      'HISTORY_LOCKED',
      `history database ${file} is locked by another connection: ${what}: try again when the other writer (another 'history add'?) is done`,
    )
  if (primary === 14)
    return make(
      'HISTORY_UNREADABLE',
      `history database ${file} cannot be opened: ${what}: make it and its directory readable, or name another file`,
    )
  if (primary === 10)
    return make(
      'HISTORY_IO',
      `history database ${file}: an I/O error: ${what}${freeText}: check the disk holding it (dmesg), or copy the file to another disk`,
    )
  return null
}
