/**
 * The history database's schema, versioned by SQLite's `PRAGMA user_version`: one function per version step, run in
 * order inside a write transaction each, so a database is always at some whole version. A file whose version is newer
 * than the last step here was written by a newer virnucpro-bench and is refused, never guessed at.
 *
 * Layout, sized for `history changes` over 10,000 runs x 50 metrics: the 500,000 metric rows hold only numbers and
 * two small integer keys (record, metric), clustered by record (WITHOUT ROWID) so reading the whole history is one
 * sequential scan; the strings (hosts, commits, metric names) live once in their own tables. Version 2 adds each
 * point's runs (`metric_samples`), read only for the few points the newest run is judged against.
 */
import type { DatabaseSync } from 'node:sqlite'
import { HistoryError } from './errors.ts'

/** v0 -> v1: runs, the machines (host + GPU model) they ran on, records, metric names and metric values. */
function createV1(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE runs (
      id INTEGER PRIMARY KEY,
      run_id TEXT NOT NULL UNIQUE,          -- provenance.runId
      added_at TEXT NOT NULL,               -- when history add stored it (ISO 8601)
      source_dir TEXT NOT NULL              -- the run directory it was read from
    );
    CREATE TABLE machines (
      id INTEGER PRIMARY KEY,
      host TEXT NOT NULL,                   -- provenance.host.hostname
      gpu_model TEXT NOT NULL,              -- NVML GPU names joined with ' + ', or 'no GPU'
      UNIQUE (host, gpu_model)
    );
    CREATE TABLE records (
      id INTEGER PRIMARY KEY,
      run INTEGER NOT NULL REFERENCES runs (id),
      record_id TEXT NOT NULL,              -- the record's id (its file name) within the run
      kind TEXT NOT NULL,
      state TEXT NOT NULL,
      created_at TEXT NOT NULL,             -- record createdAt, ISO 8601 UTC: sorts as text, orders the history
      machine INTEGER NOT NULL REFERENCES machines (id),
      target_profile TEXT NOT NULL,
      commit_sha TEXT NOT NULL,             -- target checkout's commit, else the suite's (commit_of says which)
      commit_of TEXT NOT NULL CHECK (commit_of IN ('target', 'suite', 'unknown')),
      commit_dirty INTEGER,                 -- 1 uncommitted changes, 0 clean, NULL unknown
      suite_version TEXT NOT NULL,
      regression_threshold REAL NOT NULL,   -- thresholds.regression.timeThreshold in force
      UNIQUE (run, record_id)
    );
    CREATE INDEX records_by_time ON records (created_at, id);
    CREATE TABLE metric_names (
      id INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      unit TEXT NOT NULL,                   -- '' for none; a unit change starts a new series
      better TEXT CHECK (better IN ('lower', 'higher')),
      UNIQUE (name, unit)
    );
    CREATE TABLE metrics (
      record INTEGER NOT NULL REFERENCES records (id),
      metric INTEGER NOT NULL REFERENCES metric_names (id),
      value REAL NOT NULL,
      ci_low REAL,
      ci_high REAL,
      n INTEGER,                            -- runs behind a median; NULL for a verdict's value
      verdict TEXT,                         -- the verdict's state; NULL for other metrics
      PRIMARY KEY (record, metric)
    ) WITHOUT ROWID;
    CREATE INDEX metrics_by_metric ON metrics (metric, record);
  `)
}

/**
 * v1 -> v2: the runs behind a point, as little-endian float64s (samples.ts), where the figure is a median of runs
 * (wall time, J/seq, stage rates). A night adds one point per series, and one point cannot be tested against a window
 * of points (Mann-Whitney needs runs on both sides); its runs can. A table of their own, not a column of `metrics`:
 * `changes` scans every metric row but reads runs for a few points a series, and runs in the metric rows made that
 * scan 1.8x slower at 10,000 x 50 (3 runs a point). Points stored by v1 have none: they are judged by their values.
 */
function addSamplesV2(db: DatabaseSync): void {
  db.exec(`
    CREATE TABLE metric_samples (
      record INTEGER NOT NULL REFERENCES records (id),
      metric INTEGER NOT NULL REFERENCES metric_names (id),
      samples BLOB NOT NULL,                -- little-endian float64s, one per counted run
      PRIMARY KEY (record, metric)
    ) WITHOUT ROWID;
  `)
}

/** Step i takes a database from version i to i + 1. Append only: a released step never changes. */
const MIGRATIONS: readonly ((db: DatabaseSync) => void)[] = [createV1, addSamplesV2]

/** The schema version this code writes and reads. */
export const SCHEMA_VERSION = MIGRATIONS.length

export function schemaVersionOf(db: DatabaseSync): number {
  return Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version)
}

/**
 * Refuses a database this code cannot use: a newer schema, or an SQLite file that is something else's (tables, no
 * version). Read-only: it never changes the file.
 * @throws HistoryError HISTORY_SCHEMA_TOO_NEW or HISTORY_UNREADABLE, naming the file.
 */
export function checkSchema(db: DatabaseSync, file: string): number {
  const version = schemaVersionOf(db)
  if (version > SCHEMA_VERSION)
    throw new HistoryError(
      'HISTORY_SCHEMA_TOO_NEW',
      file,
      `history database ${file} has schema version ${version}; this virnucpro-bench supports up to version ${SCHEMA_VERSION}: use a newer virnucpro-bench, or another --db`,
    )
  if (version === 0) {
    const tables = db.prepare("SELECT count(*) AS n FROM sqlite_master WHERE type = 'table'").get() as { n: number }
    if (tables.n > 0)
      throw new HistoryError(
        'HISTORY_UNREADABLE',
        file,
        `${file} is an SQLite database but not a virnucpro-bench history (it has tables and no schema version): pass another --db`,
      )
  }
  return version
}

/**
 * Brings the database to SCHEMA_VERSION, one step per transaction. The caller holds no transaction; `inTransaction`
 * runs a function inside one write transaction (with the store's lock retries).
 */
export function migrate(db: DatabaseSync, file: string, inTransaction: (step: () => void) => void): void {
  for (let version = checkSchema(db, file); version < SCHEMA_VERSION; version = checkSchema(db, file)) {
    const from = version
    inTransaction(() => {
      // Another process may have migrated between our read and our lock: steps run only from the version seen under it.
      if (schemaVersionOf(db) !== from) return
      MIGRATIONS[from]!(db)
      db.exec(`PRAGMA user_version = ${from + 1}`)
    })
  }
}
