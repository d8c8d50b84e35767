/**
 * The rows of one run, written inside the store's transaction (store.ts): the run, its records, their metrics and
 * runs. Machine and metric-name ids are looked up once and kept while the store is open (rows are never deleted, so an
 * id never goes stale) and forgotten when a transaction rolls back (the ids it handed out no longer exist).
 */
import type { DatabaseSync } from 'node:sqlite'
import type { HistoryRecordInput, HistoryRunInput } from './entry.ts'
import { encodeSamples } from './samples.ts'
import { prepareStatements } from './statements.ts'

/** What adding one run did: records stored now, records that were already there. */
export interface AddOutcome {
  runId: string
  added: number
  present: number
  metrics: number
}

export class RunInserter {
  readonly #sql: ReturnType<typeof prepareStatements>
  readonly #machines = new Map<string, number>()
  readonly #names = new Map<string, number>()

  constructor(db: DatabaseSync) {
    this.#sql = prepareStatements(db)
  }

  /** Ids handed out inside a rolled-back transaction no longer exist. */
  forgetIds(): void {
    this.#machines.clear()
    this.#names.clear()
  }

  /** Inserts one run's rows; the caller holds the transaction. */
  insertRun(run: HistoryRunInput): AddOutcome {
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
}
