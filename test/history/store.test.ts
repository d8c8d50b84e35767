import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { historyRunsOf } from '../../src/history/entry.ts'
import { HistoryError } from '../../src/history/errors.ts'
import { listRuns, metricNames, readSeries, sampleReader } from '../../src/history/read.ts'
import { SCHEMA_VERSION, schemaVersionOf } from '../../src/history/schema.ts'
import { HistoryStore } from '../../src/history/store.ts'
import { readResultRecords } from '../../src/results/store.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { CAPACITY_H200, readRecord, SCALING_RUN_DIR } from './support/fixtures.ts'
import { syntheticHistory } from './support/synthetic-history.ts'

const root = tempDirUntilFileEnd('history-store-')
let count = 0
const freshFile = () => join(root, `h${++count}.sqlite`)

function counts(store: HistoryStore) {
  const n = (table: string) => (store.db.prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n
  return { runs: n('runs'), records: n('records'), metrics: n('metrics') }
}

describe('series keys', () => {
  test('one metric of two records (a clean capacity record and a fault scenario beside it) is two series', () => {
    // Verdict ids repeat across records; a planted fault's 14 h must never read as the clean record's regression.
    const clean = readRecord(CAPACITY_H200)
    const planted = { ...clean, id: 'capacity-1-GPU-stall', name: 'capacity, 1 GPU, stall' }
    using store = HistoryStore.open(freshFile(), { create: true })
    store.addRun(historyRunsOf([clean, planted], 'dir')[0]!)
    const metric = metricNames(store).filter((m) => m.name === 'capacity/1/perf01/6000000')
    const series = readSeries(store, { metrics: metric })
    expect(series.map((s) => s.recordId)).toEqual(['capacity-1-GPU', 'capacity-1-GPU-stall'])
    for (const s of series) expect(s.values).toHaveLength(1)
  })
})

describe('campaign records', () => {
  test("one host's record on two nights, as task 0 and as task 3 of the array, is one series of two points", () => {
    const [first, second] = syntheticHistory({ runs: 2, metrics: 1, hosts: ['gpu07.cluster'] })
    first!.records[0]!.recordId = 'stage-1-GPU.gpu07-t0'
    second!.records[0]!.recordId = 'stage-1-GPU.gpu07-t3'
    using store = HistoryStore.open(freshFile(), { create: true })
    store.addRuns([first!, second!])
    const series = readSeries(store)
    expect(series.map((x) => [x.recordId, x.host, x.values.length])).toEqual([['stage-1-GPU', 'gpu07.cluster', 2]])
    // Each point still names the record it came from.
    expect(series[0]!.records.map((r) => r.recordId)).toEqual(['stage-1-GPU.gpu07-t0', 'stage-1-GPU.gpu07-t3'])
  })
})

describe('adding real runs', () => {
  test('adding a run twice changes nothing: the second add says every record is already present', async () => {
    const { records } = await readResultRecords(SCALING_RUN_DIR)
    const [run] = historyRunsOf(records, SCALING_RUN_DIR)
    using store = HistoryStore.open(freshFile(), { create: true })
    expect(store.addRun(run!)).toEqual({ runId: '2026-03-02T09-30-00Z-de30', added: 2, present: 0, metrics: 11 })
    const before = counts(store)
    expect(store.addRun(run!)).toEqual({ runId: '2026-03-02T09-30-00Z-de30', added: 0, present: 2, metrics: 0 })
    expect(counts(store)).toEqual(before)
    expect(before).toEqual({ runs: 1, records: 2, metrics: 11 })
  })

  test('keys: host, GPU model, the suite commit for the bundled pipeline (and says so), suite version, createdAt', () => {
    const record = readRecord(CAPACITY_H200)
    using store = HistoryStore.open(freshFile(), { create: true })
    store.addRun(historyRunsOf([record], 'dir')[0]!)
    const row = store.db
      .prepare(
        'SELECT m.host, m.gpu_model, r.commit_sha, r.commit_of, r.suite_version, r.created_at, r.target_profile FROM records r JOIN machines m ON m.id = r.machine',
      )
      .get()
    expect(row).toEqual({
      host: 'vm',
      gpu_model: 'NVIDIA H200',
      commit_sha: record.provenance.suite.git!.commit,
      commit_of: 'suite',
      suite_version: '0.1.0',
      created_at: '2026-11-24T12:41:00.990Z',
      target_profile: 'reference',
    })
    expect(listRuns(store)).toEqual([
      expect.objectContaining({ runId: record.provenance.runId, hosts: ['vm'], records: 1, metrics: 17 }),
    ])
  })

  test('a run that fails half-way leaves nothing of itself: one transaction per run', () => {
    const [good, bad] = syntheticHistory({ runs: 2, metrics: 3 })
    bad!.records.push({
      ...bad!.records[0]!,
      recordId: 'second',
      metrics: [{ ...bad!.records[0]!.metrics[0]!, value: Number.NaN }],
    })
    using store = HistoryStore.open(freshFile(), { create: true })
    store.addRun(good!)
    expect(() => store.addRun(bad!)).toThrow(/NOT NULL constraint failed: metrics.value/)
    expect(counts(store)).toEqual({ runs: 1, records: 1, metrics: 3 })
    // The store is still usable, and ids cached inside the rolled-back transaction are not reused.
    expect(store.addRun({ ...bad!, records: [bad!.records[0]!] }).added).toBe(1)
    expect(counts(store)).toEqual({ runs: 2, records: 2, metrics: 6 })
  })
})

describe('round trip (property)', () => {
  // SQLite keeps -0.0 as 0 (equal as a measurement, not to Object.is): generate finite doubles without the sign of zero.
  const double = fc.double({ min: -1e12, max: 1e12, noNaN: true }).map((v) => v + 0)
  const metric = fc.record({
    name: fc.constantFrom('wall/1 GPU', 'perf02/ESM-2 Feature Extraction/gpu0', 'capacity/1/perf01/6000000'),
    unit: fc.constantFrom('ms', '%', 'h', null),
    better: fc.constantFrom('lower' as const, 'higher' as const, null),
    value: double,
    ci: fc.option(fc.record({ low: double, high: double })),
    n: fc.option(fc.integer({ min: 1, max: 1000 })),
    verdict: fc.option(fc.constantFrom('pass', 'fail', 'inconclusive')),
    samples: fc.option(fc.array(double, { minLength: 1, maxLength: 7 })),
  })

  test('what is added reads back: every value, CI, run count, verdict and run, by metric, host and createdAt order', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(metric, { selector: (m) => `${m.name}\u0000${m.unit}`, maxLength: 4 }),
        fc.array(fc.integer({ min: 0, max: 1_000_000 }), { minLength: 1, maxLength: 5 }),
        (metrics, minutes) => {
          // Run i's values are offset by i, so the order they read back in shows the history order.
          const runs = minutes.map((m, i) => {
            const [run] = syntheticHistory({ runs: 1, metrics: 0 })
            const shifted = metrics.map((x) => ({ ...x, value: x.value + i }))
            const record = { ...run!.records[0]!, createdAt: new Date(m * 60_000).toISOString(), metrics: shifted }
            return { ...run!, runId: `run-${i}`, records: [record] }
          })
          const order = runs
            .map((r, i) => ({ at: r.records[0]!.createdAt, id: r.runId, i }))
            .sort((a, b) => a.at.localeCompare(b.at) || a.id.localeCompare(b.id))
            .map((r) => r.i)
          using store = HistoryStore.open(freshFile(), { create: true })
          store.addRuns(runs)
          const series = readSeries(store, { detail: true })
          const samplesOf = sampleReader(store)
          expect(series).toHaveLength(metrics.length)
          for (const m of metrics) {
            const s = series.find((x) => x.metric.name === m.name && x.metric.unit === m.unit)!
            expect(s.metric.better).toBe(m.better)
            expect(s.values).toEqual(order.map((i) => m.value + i))
            expect(s.records.map((r) => r.runId)).toEqual(order.map((i) => `run-${i}`))
            expect(s.detail!.ciLow).toEqual(order.map(() => m.ci?.low ?? null))
            expect(s.detail!.ciHigh).toEqual(order.map(() => m.ci?.high ?? null))
            expect(s.detail!.n).toEqual(order.map(() => m.n))
            expect(s.detail!.verdicts).toEqual(order.map(() => m.verdict))
            expect(s.values.map((_, at) => samplesOf(s, at))).toEqual(order.map(() => m.samples))
          }
          expect(metricNames(store)).toHaveLength(metrics.length)
        },
      ),
      { numRuns: 40 },
    )
  })
})

describe('schema versions', () => {
  test('a new file is created at the current version, in WAL mode', () => {
    const file = freshFile()
    HistoryStore.open(file, { create: true }).close()
    const db = new DatabaseSync(file)
    expect(db.prepare('PRAGMA user_version').get()).toEqual({ user_version: SCHEMA_VERSION })
    expect(db.prepare('PRAGMA journal_mode').get()).toEqual({ journal_mode: 'wal' })
    db.close()
  })

  test('a database from a newer schema is refused with one error naming the file, its version and ours', () => {
    const file = freshFile()
    HistoryStore.open(file, { create: true }).close()
    const db = new DatabaseSync(file)
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 6}`)
    db.close()
    const open = () => HistoryStore.open(file)
    expect(open).toThrow(HistoryError)
    expect(open).toThrow(
      `history database ${file} has schema version ${SCHEMA_VERSION + 6}; this virnucpro-bench supports up to version ${SCHEMA_VERSION}`,
    )
    expect(() => open()).toThrow(expect.objectContaining({ code: 'HISTORY_SCHEMA_TOO_NEW', file }))
  })

  test('a version-1 file is migrated in place: its rows stay, its points have no runs, new points store theirs', () => {
    // A v1 file as v1 wrote it: build the current schema, then take the v2 step back out, so the test holds the real
    // v1 DDL rather than a copy of it.
    const file = freshFile()
    const [old, fresh] = syntheticHistory({ runs: 2, metrics: 2 })
    using v2 = HistoryStore.open(file, { create: true })
    v2.addRun({
      ...old!,
      records: old!.records.map((r) => ({ ...r, metrics: r.metrics.map((m) => ({ ...m, samples: null })) })),
    })
    v2.close()
    const db = new DatabaseSync(file)
    db.exec('DROP TABLE metric_samples; PRAGMA user_version = 1')
    db.close()
    using store = HistoryStore.open(file)
    expect(schemaVersionOf(store.db)).toBe(SCHEMA_VERSION)
    expect(store.addRun(fresh!).added).toBe(1)
    const [series] = readSeries(store, { metrics: metricNames(store).slice(0, 1) })
    expect(series!.values).toHaveLength(2)
    const samplesOf = sampleReader(store)
    expect(samplesOf(series!, 0)).toBeNull()
    expect(samplesOf(series!, 1)).toEqual(fresh!.records[0]!.metrics[0]!.samples)
  })

  test("another program's SQLite file, and a file that is not a database, are refused; a missing one is not created", () => {
    const foreign = freshFile()
    const db = new DatabaseSync(foreign)
    db.exec('CREATE TABLE notes (text TEXT)')
    db.close()
    expect(() => HistoryStore.open(foreign)).toThrow(/not a virnucpro-bench history/)
    const missing = freshFile()
    expect(() => HistoryStore.open(missing)).toThrow(expect.objectContaining({ code: 'HISTORY_MISSING' }))
    expect(existsSync(missing)).toBe(false)
  })

  test("refused files are left byte for byte as they were, another program's journal mode included", () => {
    const foreign = freshFile()
    const db = new DatabaseSync(foreign)
    db.exec('CREATE TABLE notes (text TEXT)')
    db.close()
    const empty = freshFile()
    writeFileSync(empty, '')
    const text = freshFile()
    writeFileSync(text, 'SQLite format 2 and then some\n')
    for (const [file, why] of [
      [foreign, /not a virnucpro-bench history/],
      [empty, /is empty \(0 bytes; a copy that failed\?\): restore it .*, or delete it to start a new history$/],
      [text, /is not an SQLite database: name a virnucpro-bench history instead/],
      [root, /is a directory: name the history file in it/],
    ] as const) {
      const before = existsSync(file) && !file.endsWith('/') && file !== root ? readFileSync(file) : null
      for (const create of [false, true]) expect(() => HistoryStore.open(file, { create }), file).toThrow(why)
      if (before) expect(readFileSync(file).equals(before), file).toBe(true)
    }
  })
})

describe('a locked database', () => {
  test('a writer waits, retries a bounded number of times, then says the file is locked; it works once released', () => {
    const file = freshFile()
    HistoryStore.open(file, { create: true }).close()
    const holder = new DatabaseSync(file)
    holder.exec('BEGIN IMMEDIATE')
    holder.exec("INSERT INTO runs (run_id, added_at, source_dir) VALUES ('holder', 'now', 'here')")
    using store = HistoryStore.open(file, { busyTimeoutMs: 50, retries: 2, retryPauseMs: 20 })
    const [run] = syntheticHistory({ runs: 1, metrics: 2 })
    const started = performance.now()
    let error: unknown
    try {
      store.addRun(run!)
    } catch (e) {
      error = e
    }
    const waitedMs = performance.now() - started
    expect(error).toBeInstanceOf(HistoryError)
    expect(error).toMatchObject({ code: 'HISTORY_LOCKED', file })
    expect((error as Error).message).toMatch(
      new RegExp(
        `^history database ${file} is locked by another connection \\(add run synthetic-000000: 3 tries, each waiting 50 ms\\)`,
      ),
    )
    // Three tries of 50 ms each and two pauses of 20 ms: it did wait, and not forever.
    expect(waitedMs).toBeGreaterThanOrEqual(150)
    expect(waitedMs).toBeLessThan(5_000)
    holder.exec('ROLLBACK')
    holder.close()
    expect(store.addRun(run!).added).toBe(1)
  })
})
