/**
 * Why a history database could not be used, as one typed error with a string code: the CLI prints the message on one
 * line (it names the file and what to do) and exits 3, so a CI gate never reads a database problem as a regression.
 */
export type HistoryErrorCode =
  /** The file's schema is newer than this code knows (written by a newer virnucpro-bench). */
  | 'HISTORY_SCHEMA_TOO_NEW'
  /** Another process held the write lock through every retry. */
  | 'HISTORY_LOCKED'
  /** The file is not an SQLite database, or SQLite refused it. */
  | 'HISTORY_UNREADABLE'
  /** A read command was pointed at a file that does not exist. */
  | 'HISTORY_MISSING'
  /** A write (history add) to a file or directory that cannot be written. */
  | 'HISTORY_READONLY'

export class HistoryError extends Error {
  override name = 'HistoryError'
  readonly code: HistoryErrorCode
  readonly file: string
  constructor(code: HistoryErrorCode, file: string, message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.code = code
    this.file = file
  }
}

/** SQLite's "database is locked" (SQLITE_BUSY) and its shared-cache cousin SQLITE_LOCKED, as node:sqlite reports them. */
export function isBusy(error: unknown): boolean {
  const e = error as { errcode?: number; code?: string; message?: string }
  // Primary result codes 5 (BUSY) and 6 (LOCKED); extended codes keep them in the low byte.
  if (typeof e?.errcode === 'number') return (e.errcode & 0xff) === 5 || (e.errcode & 0xff) === 6
  return /database is locked|database table is locked/i.test(e?.message ?? '')
}

/** SQLite's "attempt to write a readonly database" (SQLITE_READONLY, 8) and its extended codes. */
export function isReadOnly(error: unknown): boolean {
  const e = error as { errcode?: number; message?: string }
  if (typeof e?.errcode === 'number') return (e.errcode & 0xff) === 8
  return /readonly database/i.test(e?.message ?? '')
}
