/**
 * Why a history database could not be used, as one typed error with a string code: the CLI prints the message on one
 * line (it names the file and what to do) and exits 3, so a CI gate never reads a database problem as a regression.
 */
import { CodedError } from '../platform/coded-error.ts'
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
  /** The disk holding the file (or its -wal and -shm files) is full: SQLITE_FULL, or an I/O error with no space left. */
  | 'HISTORY_DISK_FULL'
  /** SQLite read a page that is not what it wrote (SQLITE_CORRUPT, SQLITE_NOTADB past a valid header). */
  | 'HISTORY_DAMAGED'
  /** Any other I/O error SQLite met reading or writing the file (SQLITE_IOERR with space left). */
  | 'HISTORY_IO'

export class HistoryError extends CodedError<HistoryErrorCode> {
  override name = 'HistoryError'
  readonly file: string
  constructor(code: HistoryErrorCode, file: string, message: string, options?: { cause?: unknown }) {
    super(code, message, options)
    this.file = file
  }
}

/** SQLite's primary result code of an error node:sqlite threw (extended codes keep it in the low byte), else null. */
export function sqlitePrimaryCode(error: unknown): number | null {
  const e = error as { errcode?: unknown; code?: unknown }
  return e?.code === 'ERR_SQLITE_ERROR' && typeof e.errcode === 'number' ? e.errcode & 0xff : null
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
