// SQLite's failures named as what they are (src/history/sqlite-failure.ts), from real node:sqlite errors of real
// files, and the store's reads as one snapshot while a second connection writes.
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, test } from 'vitest'
import { listRuns, readSeries } from '../../src/history/read.ts'
import { sqliteCodeName, sqliteFailure } from '../../src/history/sqlite-failure.ts'
import { HistoryStore } from '../../src/history/store.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { damageMetricsPage } from './support/damage.ts'
import { insertSyntheticHistory, syntheticHistory } from './support/synthetic-history.ts'

const root = tempDirUntilFileEnd('history-failure-')
let count = 0
const freshFile = () => join(root, `f${++count}.sqlite`)

/** What `fn` threw. */
function thrown(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected a throw')
}

describe('sqliteFailure', () => {
  test('extended codes are named by their sqlite3.h names where known', () => {
    expect(sqliteCodeName(13)).toBe('SQLITE_FULL')
    expect(sqliteCodeName(10 | (19 << 8))).toBe('SQLITE_IOERR_SHMSIZE')
    expect(sqliteCodeName(10 | (3 << 8))).toBe('SQLITE_IOERR_WRITE')
    expect(sqliteCodeName(11)).toBe('SQLITE_CORRUPT')
    expect(sqliteCodeName(8 | (1 << 8))).toBe('SQLITE_READONLY (extended code 264)')
    expect(sqliteCodeName(99)).toBe('SQLite result 99')
  })

  test('a write through a read-only connection: HISTORY_READONLY naming the file', () => {
    const file = freshFile()
    insertSyntheticHistory(file, { runs: 2, metrics: 1 })
    const db = new DatabaseSync(file, { readOnly: true })
    const error = thrown(() => db.exec("INSERT INTO runs (run_id, added_at, source_dir) VALUES ('x', 'y', 'z')"))
    db.close()
    const named = sqliteFailure(file, error, 'add run x', 'nothing was added')
    expect(named).toMatchObject({ code: 'HISTORY_READONLY', file })
    expect(named?.message).toBe(
      `history database ${file} cannot be written: attempt to write a readonly database (SQLITE_READONLY) on 'add run x': make it and its directory writable, or give --db a writable copy; nothing was added`,
    )
  })

  test('a write while another connection holds the lock: HISTORY_LOCKED', () => {
    const file = freshFile()
    insertSyntheticHistory(file, { runs: 2, metrics: 1 })
    const holder = new DatabaseSync(file)
    holder.exec('BEGIN IMMEDIATE')
    const db = new DatabaseSync(file, { timeout: 0 })
    const error = thrown(() => db.exec('BEGIN IMMEDIATE'))
    holder.exec('ROLLBACK')
    holder.close()
    db.close()
    expect(sqliteFailure(file, error, 'add run x')).toMatchObject({ code: 'HISTORY_LOCKED', file })
  })

  test('a damaged page: HISTORY_DAMAGED, with the integrity check to run', () => {
    const file = freshFile()
    insertSyntheticHistory(file, { runs: 400, metrics: 5, runsPerPoint: 0 })
    damageMetricsPage(file)
    const db = new DatabaseSync(file)
    const error = thrown(() => db.prepare('SELECT count(*), sum(value) FROM metrics').get())
    db.close()
    const named = sqliteFailure(file, error, 'read its series')
    expect(named).toMatchObject({ code: 'HISTORY_DAMAGED', file })
    expect(named?.message).toContain(`check it with sqlite3 '${file}' 'PRAGMA integrity_check'`)
  })

  test('anything but an SQLite error (a bug of ours) is left to the caller', () => {
    expect(sqliteFailure('x.sqlite', new TypeError("Cannot destructure property 'host'"), 'read')).toBeNull()
    const db = new DatabaseSync(':memory:')
    // SQLITE_ERROR (a query of ours that is wrong) is no bad day on disk either.
    expect(
      sqliteFailure(
        'x.sqlite',
        thrown(() => db.exec('SELECT * FROM nowhere')),
        'read',
      ),
    ).toBeNull()
    db.close()
  })
})

describe('HistoryStore.read', () => {
  test("queries inside one read see one snapshot: another connection's run committed between them is not seen", () => {
    const file = freshFile()
    insertSyntheticHistory(file, { runs: 3, metrics: 2 })
    using store = HistoryStore.open(file)
    const other = HistoryStore.open(file)
    const [, , , extra] = syntheticHistory({ runs: 4, metrics: 2 })
    const seen = store.read('test', () => {
      const before = listRuns(store).length
      other.addRun(extra!)
      return { before, after: listRuns(store).length, points: readSeries(store)[0]!.values.length }
    })
    other.close()
    expect(seen).toEqual({ before: 3, after: 3, points: 3 })
    expect(listRuns(store)).toHaveLength(4)
  })

  test('a failure inside a read ends its transaction: the store reads on afterwards', () => {
    const file = freshFile()
    insertSyntheticHistory(file, { runs: 2, metrics: 1 })
    using store = HistoryStore.open(file)
    expect(() => store.read('test', () => store.db.exec('SELECT * FROM nowhere'))).toThrow(/no such table/)
    expect(store.db.isTransaction).toBe(false)
    expect(listRuns(store)).toHaveLength(2)
  })
})
