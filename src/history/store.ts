/**
 * The history store: one SQLite file through Node's built-in `node:sqlite`. Why that and not better-sqlite3 or a JSON
 * file: it is a real embedded database (transactions, indexes, concurrent readers in WAL mode) with no native build and
 * no dependency, shipped in the Node the suite already requires (24; the same module is in 22.13+ behind no flag).
 *
 * Writes take the write lock up front (BEGIN IMMEDIATE) and wait for it: SQLite's busy timeout first, then a bounded
 * number of retries with a pause, then one HistoryError naming the file. One transaction per run, so a run is either
 * all in or not at all. Reads go through `read`: one read transaction, so what they see is one snapshot however many
 * queries they make while another process adds runs (WAL: the writer does not wait for them either). A full disk, a
 * damaged page or a read-only place met on the way is a HistoryError saying so (sqlite-failure.ts).
 */
import { existsSync, rmSync, statSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { makeDirsSync } from '../platform/make-dirs.ts'
import type { HistoryRunInput } from './entry.ts'
import { HistoryError, isBusy } from './errors.ts'
import { checkCurrent, checkHistoryFile, openReadOnly, unusable, whyNotWritable } from './file-check.ts'
import { type AddOutcome, RunInserter } from './insert-run.ts'
import { checkSchema, migrate } from './schema.ts'
import { sqliteFailure } from './sqlite-failure.ts'

export interface HistoryOpenOptions {
  /** Create the file (its folder and its schema) when it does not exist; otherwise a missing file is HISTORY_MISSING. */
  create?: boolean
  /** How long SQLite itself waits for a lock before reporting it busy (ms). */
  busyTimeoutMs?: number
  /** Further attempts after the first busy answer, each after `retryPauseMs`. */
  retries?: number
  retryPauseMs?: number
}

export const DEFAULT_BUSY_TIMEOUT_MS = 2_000
export const DEFAULT_LOCK_RETRIES = 3
export const DEFAULT_RETRY_PAUSE_MS = 250

export type { AddOutcome }

const sleepMs = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

/**
 * A history this call was creating when the disk failed it is no history: left as a 0-byte file, the next add would
 * refuse it as "a copy that failed". Only then: a lock (another process creating the same file, its schema still in
 * its WAL with the main file at 0 bytes) removes nothing.
 */
function removeUnborn(file: string, failure: HistoryError): void {
  if (failure.code !== 'HISTORY_DISK_FULL' && failure.code !== 'HISTORY_IO') return
  if (statSync(file, { throwIfNoEntry: false })?.size !== 0) return
  for (const made of [file, `${file}-wal`, `${file}-shm`]) rmSync(made, { force: true })
}

export class HistoryStore {
  readonly file: string
  readonly db: DatabaseSync
  readonly #retries: number
  readonly #pauseMs: number
  readonly #waitMs: number
  #inserter: RunInserter | undefined

  /** Made once per store, after the schema exists: a bulk insert of 500,000 metrics prepares nothing per row. */
  get #rows(): RunInserter {
    this.#inserter ??= new RunInserter(this.db)
    return this.#inserter
  }

  private constructor(file: string, db: DatabaseSync, options: HistoryOpenOptions) {
    this.file = file
    this.db = db
    this.#retries = options.retries ?? DEFAULT_LOCK_RETRIES
    this.#pauseMs = options.retryPauseMs ?? DEFAULT_RETRY_PAUSE_MS
    this.#waitMs = options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS
  }

  /**
   * Opens (or with `create`, creates) a history database and brings its schema up to date. A file that is not one
   * (empty, another tool's SQLite database, a newer schema) is refused before anything is written to it.
   * @throws HistoryError: HISTORY_MISSING, HISTORY_SCHEMA_TOO_NEW, HISTORY_LOCKED or HISTORY_UNREADABLE, naming the file.
   */
  static open(file: string, options: HistoryOpenOptions = {}): HistoryStore {
    if (!options.create && !existsSync(file))
      throw new HistoryError(
        'HISTORY_MISSING',
        file,
        `no history database at ${file}: store runs with 'virnucpro-bench history add RUN_DIR --db ${file}'`,
      )
    checkHistoryFile(file)
    // A history this process cannot write (a restored artifact, another user's) is still read: list, show, changes.
    const readOnly = !options.create && whyNotWritable(file) !== null
    const creating = options.create === true && !existsSync(file)
    let db: DatabaseSync
    try {
      if (options.create) makeDirsSync(dirname(file))
      db = readOnly
        ? openReadOnly(file)
        : new DatabaseSync(file, { timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS })
    } catch (error) {
      throw sqliteFailure(file, error, 'open it') ?? unusable(file, error)
    }
    const store = new HistoryStore(file, db, options)
    try {
      // Read-only, before the first write below: another tool's database is refused as it was found.
      store.#locked('read its schema', () => checkSchema(db, file))
      if (readOnly) checkCurrent(db, file)
      else store.#setUp()
    } catch (error) {
      db.close()
      if (error instanceof HistoryError) throw error
      const failure = sqliteFailure(file, error, creating ? 'create it' : 'read its schema')
      if (creating && failure) removeUnborn(file, failure)
      throw failure ?? unusable(file, error)
    }
    return store
  }

  #setUp(): void {
    this.#locked('set up', () => {
      // WAL: readers (list, show, changes) never wait for a writer, and a run's commit is one sequential append.
      this.db.exec('PRAGMA journal_mode = WAL')
      this.db.exec('PRAGMA foreign_keys = ON')
    })
    migrate(this.db, this.file, (step) => this.transaction('migrate', step))
  }

  /**
   * Runs `fn` inside one write transaction, rolled back whole when it throws.
   * @throws HistoryError HISTORY_LOCKED, or what SQLite's failure was (sqlite-failure.ts), naming the file.
   */
  transaction<T>(what: string, fn: () => T): T {
    this.#locked(what, () => this.db.exec('BEGIN IMMEDIATE'))
    try {
      const result = fn()
      this.db.exec('COMMIT')
      return result
    } catch (error) {
      this.#rollBack()
      this.#inserter?.forgetIds()
      throw sqliteFailure(this.file, error, what) ?? error
    }
  }

  /**
   * Runs `fn` on one snapshot of the database: one read transaction, so queries made one after another see the same
   * runs while another process adds more. Inside a transaction already, `fn` just runs (it is in that one).
   * @throws HistoryError when SQLite fails (a damaged page, a full disk, ...: sqlite-failure.ts), naming the file.
   */
  read<T>(what: string, fn: () => T): T {
    if (this.db.isTransaction) return fn()
    try {
      // Deferred: the snapshot starts with the first query and lasts to COMMIT; readers take no lock a writer waits on.
      this.db.exec('BEGIN')
      const result = fn()
      this.db.exec('COMMIT')
      return result
    } catch (error) {
      this.#rollBack()
      throw sqliteFailure(this.file, error, what) ?? error
    }
  }

  /** Ends a failed transaction; SQLite may have ended it already (a full disk), and a failure here says no more. */
  #rollBack(): void {
    try {
      if (this.db.isTransaction) this.db.exec('ROLLBACK')
    } catch {
      // The error that made us roll back is the one to report.
    }
  }

  /** `fn` again while SQLite says busy, `retries` more times; then one clear error. */
  #locked(what: string, fn: () => void): void {
    for (let attempt = 0; ; attempt++) {
      try {
        fn()
        return
      } catch (error) {
        if (!isBusy(error)) throw error
        if (attempt >= this.#retries) {
          const tries = attempt + 1
          throw new HistoryError(
            'HISTORY_LOCKED',
            this.file,
            `history database ${this.file} is locked by another connection (${what}: ${tries} tries, each waiting ${this.#waitMs} ms): try again when the other writer (another 'history add'?) is done`,
            { cause: error },
          )
        }
        sleepMs(this.#pauseMs)
      }
    }
  }

  /**
   * Adds one run in one transaction. Records already stored (same run ID and record id) are left as they are.
   * @throws HistoryError HISTORY_LOCKED, HISTORY_READONLY, HISTORY_DISK_FULL, ...: what stopped SQLite, saying that
   *   nothing of the run was added.
   */
  addRun(run: HistoryRunInput): AddOutcome {
    try {
      return this.transaction(`add run ${run.runId}`, () => this.#rows.insertRun(run))
    } catch (error) {
      if (!(error instanceof HistoryError)) throw error
      throw new HistoryError(error.code, this.file, `${error.message}; nothing of run ${run.runId} was added`, {
        cause: error.cause,
      })
    }
  }

  /**
   * Adds many runs in one transaction: the bulk path (synthetic histories for benchmarks, imports), all or nothing.
   */
  addRuns(runs: readonly HistoryRunInput[]): AddOutcome[] {
    return this.transaction(`add ${runs.length} runs`, () => runs.map((run) => this.#rows.insertRun(run)))
  }

  close(): void {
    if (this.db.isOpen) this.db.close()
  }

  [Symbol.dispose](): void {
    this.close()
  }
}
