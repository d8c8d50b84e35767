/**
 * Reading the history back: the runs, the metric names, and series (one metric on one machine, in history order). A
 * series read is two queries whatever the size: the records (ordered by createdAt through their index) and one
 * sequential scan of the metric rows (or, for some metrics, their index), grouped in memory. Rows come back as arrays
 * (no object per row) and series are columns, so 10,000 runs x 50 metrics is a fraction of a second. Each read is one
 * snapshot (HistoryStore.read): a run added between the records query and the metrics scan would otherwise bring
 * metric rows of records the first query never saw.
 */
import type { StatementSync } from 'node:sqlite'
import type { Better } from './metric-names.ts'
import { decodeSamples } from './samples.ts'
import { seriesRecordId } from './series-id.ts'
import { sqliteFailure } from './sqlite-failure.ts'
import type { HistoryStore } from './store.ts'

export interface RunSummary {
  runId: string
  createdAt: string
  hosts: string[]
  gpuModels: string[]
  commits: string[]
  commitOf: string[]
  records: number
  metrics: number
}

export interface MetricName {
  id: number
  name: string
  unit: string | null
  better: Better | null
}

/** One record as a series point refers to it. */
export interface RecordRef {
  runId: string
  recordId: string
  createdAt: string
  host: string
  gpuModel: string
  commit: string
  commitOf: string
  regressionThreshold: number
}

/** The CIs, run counts and verdict states of a series' points, read when asked for (show, not changes). */
export interface SeriesDetail {
  ciLow: (number | null)[]
  ciHigh: (number | null)[]
  n: (number | null)[]
  verdicts: (string | null)[]
}

/**
 * One metric of one record id on one machine, oldest first: columns of equal length. The record id is part of the key
 * because verdict ids repeat across records (`capacity/1/perf01/6000000` of the clean capacity record and of a fault
 * scenario's; `perf02/.../gpu0` of the stage suite and of a validation run): one series mixing them would read a
 * planted fault as a regression of the pipeline. Record ids are stable from night to night by design.
 */
export interface Series {
  metric: MetricName
  recordId: string
  host: string
  gpuModel: string
  records: RecordRef[]
  /** The records' row ids, parallel to `records`: how readSamples finds a point's runs. Internal to the database. */
  rowIds: number[]
  values: number[]
  detail: SeriesDetail | null
}

function rows(statement: StatementSync, ...params: (string | number)[]): unknown[][] {
  statement.setReturnArrays(true)
  return statement.all(...params) as unknown as unknown[][]
}

/** Every run, oldest first (by its earliest record), with what its records were measured on. */
export function listRuns(store: HistoryStore): RunSummary[] {
  return store.read('list its runs', () => readRuns(store))
}

function readRuns(store: HistoryStore): RunSummary[] {
  const statement = store.db.prepare(`
    SELECT ru.run_id, min(r.created_at), group_concat(DISTINCT m.host), group_concat(DISTINCT m.gpu_model),
      group_concat(DISTINCT r.commit_sha), group_concat(DISTINCT r.commit_of), count(*),
      sum((SELECT count(*) FROM metrics x WHERE x.record = r.id))
    FROM runs ru JOIN records r ON r.run = ru.id JOIN machines m ON m.id = r.machine
    GROUP BY ru.id ORDER BY 2, 1`)
  const list = (v: unknown) => String(v).split(',')
  return rows(statement).map(([runId, createdAt, hosts, gpus, commits, whose, records, metrics]) => ({
    runId: String(runId),
    createdAt: String(createdAt),
    hosts: list(hosts),
    gpuModels: list(gpus),
    commits: list(commits),
    commitOf: list(whose),
    records: Number(records),
    metrics: Number(metrics),
  }))
}

/** Every metric name in the history, sorted by name. */
export function metricNames(store: HistoryStore): MetricName[] {
  return store.read('read its metric names', () => readNames(store))
}

function readNames(store: HistoryStore): MetricName[] {
  return rows(store.db.prepare('SELECT id, name, unit, better FROM metric_names ORDER BY name, unit')).map(
    ([id, name, unit, better]) => ({
      id: Number(id),
      name: String(name),
      unit: unit === '' ? null : String(unit),
      better: (better as Better | null) ?? null,
    }),
  )
}

/** Records in history order (createdAt, then run ID and record id for ties), and each one's machine. */
function readRecords(store: HistoryStore) {
  const statement = store.db.prepare(`
    SELECT r.id, ru.run_id, r.record_id, r.created_at, m.host, m.gpu_model, r.commit_sha, r.commit_of,
      r.regression_threshold, r.machine
    FROM records r JOIN runs ru ON ru.id = r.run JOIN machines m ON m.id = r.machine
    ORDER BY r.created_at, ru.run_id, r.record_id`)
  const all = rows(statement)
  const refs: RecordRef[] = []
  /** History position -> record row id. */
  const rowIdAt: number[] = []
  const maxId = all.reduce((max, row) => Math.max(max, Number(row[0])), 0)
  /** Record row id -> its place in history order (-1: none), and -> its machine id. */
  const position = new Int32Array(maxId + 1).fill(-1)
  const machine = new Int32Array(maxId + 1)
  /** Record row id -> a small number for its series' record id (one id across runs and campaign tasks shares it). */
  const recordKey = new Int32Array(maxId + 1)
  const recordIds = new Map<string, number>()
  for (const [id, runId, recordId, createdAt, host, gpuModel, commit, commitOf, threshold, machineId] of all) {
    position[Number(id)] = refs.length
    rowIdAt.push(Number(id))
    machine[Number(id)] = Number(machineId)
    const series = seriesRecordId(String(recordId), String(host))
    const key = recordIds.get(series) ?? recordIds.size
    recordIds.set(series, key)
    recordKey[Number(id)] = key
    refs.push({
      runId: String(runId),
      recordId: String(recordId),
      createdAt: String(createdAt),
      host: String(host),
      gpuModel: String(gpuModel),
      commit: String(commit),
      commitOf: String(commitOf),
      regressionThreshold: Number(threshold),
    })
  }
  return { refs, rowIdAt, position, machine, recordKey, recordIdCount: recordIds.size }
}

interface Builder {
  series: Series
  positions: number[]
  sorted: boolean
}

const newDetail = (): SeriesDetail => ({ ciLow: [], ciHigh: [], n: [], verdicts: [] })

/** Puts a builder's columns in history order (they arrive in record-id order, which is insertion order). */
function finish({ series, positions, sorted }: Builder, refs: RecordRef[], rowIdAt: number[]): Series {
  if (!sorted) {
    const order = positions.map((_, i) => i).sort((a, b) => positions[a]! - positions[b]!)
    const pick = <T>(column: T[]) => order.map((i) => column[i]!)
    series.values = pick(series.values)
    const d = series.detail
    if (d) series.detail = { ciLow: pick(d.ciLow), ciHigh: pick(d.ciHigh), n: pick(d.n), verdicts: pick(d.verdicts) }
    positions.sort((a, b) => a - b)
  }
  series.records = positions.map((p) => refs[p]!)
  series.rowIds = positions.map((p) => rowIdAt[p]!)
  return series
}

const optional = (v: unknown) => (v === null ? null : Number(v))

export interface ReadSeriesOptions {
  /** Only these metrics (one indexed query each); all when omitted (one sequential scan). */
  metrics?: readonly MetricName[]
  /** Also read CIs, run counts and verdict states (`detail`); values only otherwise, which is what `changes` needs. */
  detail?: boolean
}

/**
 * Series of the metrics asked for, one per metric, record id and machine, ordered by metric name, record id, host and
 * GPU model.
 */
export function readSeries(store: HistoryStore, options: ReadSeriesOptions = {}): Series[] {
  return store.read('read its series', () => seriesOf(store, options))
}

function seriesOf(store: HistoryStore, options: ReadSeriesOptions): Series[] {
  const names = new Map(readNames(store).map((m) => [m.id, m]))
  const { refs, rowIdAt, position, machine, recordKey, recordIdCount } = readRecords(store)
  const columns = options.detail ? 'record, metric, value, ci_low, ci_high, n, verdict' : 'record, metric, value'
  const select = `SELECT ${columns} FROM metrics`
  const scanned = options.metrics
    ? options.metrics.flatMap((m) => rows(store.db.prepare(`${select} WHERE metric = ?`), m.id))
    : rows(store.db.prepare(select))
  const machines = machine.reduce((max, id) => Math.max(max, id), 0) + 1
  const builders = new Map<number, Builder>()
  for (const row of scanned) {
    const record = Number(row[0])
    const metric = Number(row[1])
    const at = position[record]!
    const key = (metric * machines + machine[record]!) * recordIdCount + recordKey[record]!
    let builder = builders.get(key)
    if (!builder) {
      const { host, gpuModel } = refs[at]!
      const recordId = seriesRecordId(refs[at]!.recordId, host)
      const detail = options.detail ? newDetail() : null
      const series: Series = {
        metric: names.get(metric)!,
        recordId,
        host,
        gpuModel,
        records: [],
        rowIds: [],
        values: [],
        detail,
      }
      builder = { series, positions: [], sorted: true }
      builders.set(key, builder)
    }
    const { series, positions } = builder
    if (positions.length > 0 && positions.at(-1)! > at) builder.sorted = false
    positions.push(at)
    series.values.push(Number(row[2]))
    const d = series.detail
    if (d) {
      d.ciLow.push(optional(row[3]))
      d.ciHigh.push(optional(row[4]))
      d.n.push(optional(row[5]))
      d.verdicts.push(row[6] === null ? null : String(row[6]))
    }
  }
  return [...builders.values()]
    .map((b) => finish(b, refs, rowIdAt))
    .sort(
      (a, b) =>
        a.metric.name.localeCompare(b.metric.name) ||
        a.recordId.localeCompare(b.recordId) ||
        a.host.localeCompare(b.host) ||
        a.gpuModel.localeCompare(b.gpuModel),
    )
}

/** The runs behind the point at `index` of a series (null: none stored); what `analyzeChanges` is given to read them. */
export type SampleReader = (series: Series, index: number) => number[] | null

/**
 * Reads points' runs one at a time through the primary key: the newest-run judgement needs the runs of about 50 points
 * per series, so reading every stored run of 500,000 points up front would be most of the cost of `history changes`.
 */
export function sampleReader(store: HistoryStore): SampleReader {
  const statement = store.db.prepare('SELECT samples FROM metric_samples WHERE record = ? AND metric = ?')
  return (series, index) => {
    // No transaction of its own: a point's runs never change once stored, whoever adds runs meanwhile.
    let row: { samples: Uint8Array | null } | undefined
    try {
      row = statement.get(series.rowIds[index]!, series.metric.id) as typeof row
    } catch (error) {
      throw sqliteFailure(store.file, error, "read a point's runs") ?? error
    }
    return decodeSamples(row?.samples ?? null)
  }
}
