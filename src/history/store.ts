/**
 * The history store: one SQLite file through Node's built-in `node:sqlite`. Why that and not better-sqlite3 or a JSON
 * file: it is a real embedded database (transactions, indexes, concurrent readers in WAL mode) with no native build and
 * no dependency, shipped in the Node the suite already requires (24; the same module is in 22.13+ behind no flag).
 *
 * Writes take the write lock up front (BEGIN IMMEDIATE) and wait for it: SQLite's busy timeout first, then a bounded
 * number of retries with a pause, then one HistoryError naming the file. One transaction per run, so a run is either
 * all in or not at all.
 */
import { existsSync } from 'node:fs'
import { dirname } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { makeDirsSync } from '../platform/make-dirs.ts'
import type { HistoryRecordInput, HistoryRunInput } from './entry.ts'
import { HistoryError, isBusy, isReadOnly } from './errors.ts'
import { checkCurrent, checkHistoryFile, openReadOnly, unusable, whyNotWritable } from './file-check.ts'
import { encodeSamples } from './samples.ts'
import { checkSchema, migrate } from './schema.ts'
import { prepareStatements } from './statements.ts'

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

/** What adding one run did: records stored now, records that were already there. */
export interface AddOutcome {
  runId: string
  added: number
  present: number
  metrics: number
}

const sleepMs = (ms: number) => Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)

export class HistoryStore {
  readonly file: string
  readonly db: DatabaseSync
  readonly #retries: number
  readonly #pauseMs: number
  readonly #waitMs: number
  readonly #machines = new Map<string, number>()
  readonly #names = new Map<string, number>()
  #statements: ReturnType<typeof prepareStatements> | undefined

  /** Prepared once per store, after the schema exists: a bulk insert of 500,000 metrics prepares nothing per row. */
  get #sql(): ReturnType<typeof prepareStatements> {
    this.#statements ??= prepareStatements(this.db)
    return this.#statements
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
    let db: DatabaseSync
    try {
      if (options.create) makeDirsSync(dirname(file))
      db = readOnly
        ? openReadOnly(file)
        : new DatabaseSync(file, { timeout: options.busyTimeoutMs ?? DEFAULT_BUSY_TIMEOUT_MS })
    } catch (error) {
      throw unusable(file, error)
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
      throw unusable(file, error)
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

  /** Runs `fn` inside one write transaction, rolled back whole when it throws. @throws HistoryError HISTORY_LOCKED */
  transaction<T>(what: string, fn: () => T): T {
    this.#locked(what, () => this.db.exec('BEGIN IMMEDIATE'))
    try {
      const result = fn()
      this.db.exec('COMMIT')
      return result
    } catch (error) {
      if (this.db.isTransaction) this.db.exec('ROLLBACK')
      // Ids handed out inside the rolled-back transaction no longer exist.
      this.#machines.clear()
      this.#names.clear()
      throw error
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
   * @throws HistoryError HISTORY_LOCKED, or HISTORY_READONLY when SQLite cannot write the file (nothing was added).
   */
  addRun(run: HistoryRunInput): AddOutcome {
    try {
      return this.transaction(`add run ${run.runId}`, () => this.#insertRun(run))
    } catch (error) {
      if (!isReadOnly(error)) throw error
      throw new HistoryError(
        'HISTORY_READONLY',
        this.file,
        `history database ${this.file} cannot be written (${message(error)}): make it and its directory writable, or give --db a writable copy; nothing was added`,
        { cause: error },
      )
    }
  }

  /**
   * Adds many runs in one transaction: the bulk path (synthetic histories for benchmarks, imports), all or nothing.
   */
  addRuns(runs: readonly HistoryRunInput[]): AddOutcome[] {
    return this.transaction(`add ${runs.length} runs`, () => runs.map((run) => this.#insertRun(run)))
  }

  #insertRun(run: HistoryRunInput): AddOutcome {
    this.#sql.insertRun.run(run.runId, new Date().toISOString(), run.sourceDir)
    const { id } = this.#sql.runId.get(run.runId) as { id: number }
    const outcome: AddOutcome = { runId: run.runId, added: 0, present: 0, metrics: 0 }
    for (const record of run.records) {
      const recordRef = this.#insertRecord(id, record)
      if (recordRef === null) {
        outcome.present++
        continue
      }
      outcome.added++
      outcome.metrics += this.#insertMetrics(recordRef, record)
    }
    return outcome
  }

  /** The new record's row id; null when the run already holds a record with this id. */
  #insertRecord(run: number, r: HistoryRecordInput): number | null {
    const row = this.#sql.insertRecord.get(
      run,
      r.recordId,
      r.kind,
      r.state,
      r.createdAt,
      this.#machine(r.host, r.gpuModel),
      r.targetProfile,
      r.commit,
      r.commitOf,
      r.commitDirty === null ? null : Number(r.commitDirty),
      r.suiteVersion,
      r.regressionThreshold,
    ) as { id: number } | undefined
    return row?.id ?? null
  }

  #insertMetrics(recordRef: number, r: HistoryRecordInput): number {
    const insert = this.#sql.insertMetric
    let count = 0
    for (const m of r.metrics) {
      const metric = this.#metricName(m.name, m.unit, m.better)
      const samples = encodeSamples(m.samples)
      if (samples) this.#sql.insertSamples.run(recordRef, metric, samples)
      count += Number(
        insert.run(recordRef, metric, m.value, m.ci?.low ?? null, m.ci?.high ?? null, m.n, m.verdict).changes,
      )
    }
    return count
  }

  #machine(host: string, gpuModel: string): number {
    return this.#idOf(this.#machines, `${host}\u0000${gpuModel}`, () => {
      this.#sql.insertMachine.run(host, gpuModel)
      return this.#sql.machineId.get(host, gpuModel)
    })
  }

  #metricName(name: string, unit: string | null, better: string | null): number {
    return this.#idOf(this.#names, `${name}\u0000${unit ?? ''}`, () => {
      this.#sql.insertName.run(name, unit ?? '', better)
      return this.#sql.nameId.get(name, unit ?? '')
    })
  }

  /** Small-table ids, cached for the store's life (rows are never deleted, so an id never goes stale). */
  #idOf(cache: Map<string, number>, key: string, lookup: () => unknown): number {
    const cached = cache.get(key)
    if (cached !== undefined) return cached
    const id = (lookup() as { id: number }).id
    cache.set(key, id)
    return id
  }

  close(): void {
    if (this.db.isOpen) this.db.close()
  }

  [Symbol.dispose](): void {
    this.close()
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error))
