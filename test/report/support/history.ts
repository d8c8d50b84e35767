// History databases for the trends tests, as real SQLite files: real result records stored as several nights (each a
// run of its own at its own commit), and synthetic histories with headline metric names and a planted step.
import { existsSync } from 'node:fs'
import { join } from 'node:path'
import { historyRunsOf } from '../../../src/history/entry.ts'
import { HistoryStore } from '../../../src/history/store.ts'
import { buildReport } from '../../../src/report/analyses/build.ts'
import { loadReportInput } from '../../../src/report/load.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { readResultRecords } from '../../../src/results/store.ts'
import { CAPACITY_CPU, CAPACITY_H200, readRecord, SCALING_RUN_DIR } from '../../history/support/fixtures.ts'
import { type SyntheticOptions, syntheticCommit, syntheticHistory } from '../../history/support/synthetic-history.ts'

const DAY_MS = 86_400_000

/** The real records of test/fixtures: the demo scaling run, the H200 capacity record and the CPU capacity record. */
export async function realRecords(): Promise<ResultRecord[]> {
  const { records } = await readResultRecords(SCALING_RUN_DIR)
  return [...records, readRecord(CAPACITY_H200), readRecord(CAPACITY_CPU)]
}

/** `record` as stored on night `i`: its run ID, createdAt and commit moved on, its figures as they are. */
function asNight(record: ResultRecord, i: number): ResultRecord {
  const p = structuredClone(record.provenance)
  p.runId = `${p.runId}-night${i}`
  if (p.target.git) p.target.git.commit = syntheticCommit(i)
  if (p.suite.git) p.suite.git.commit = syntheticCommit(i)
  return { ...record, provenance: p, createdAt: new Date(Date.parse(record.createdAt) + i * DAY_MS).toISOString() }
}

/** Stores `records` as `nights` runs, one a night at commit syntheticCommit(night). */
export function addNights(file: string, records: readonly ResultRecord[], nights: number): void {
  using store = HistoryStore.open(file, { create: true })
  for (let i = 0; i < nights; i++)
    for (const run of historyRunsOf(
      records.map((r) => asNight(r, i)),
      'fixture',
    ))
      store.addRun(run)
}

export interface Step {
  metrics: readonly string[]
  atRun: number
  factor: number
}

/**
 * A fresh history file in `dir`, synthetic (30 runs, one a commit, unless told), with headline names (`wall/<setup>`
 * ...), `options.step` and any further `steps` planted (each multiplies its metrics from its run on).
 */
export function syntheticHeadlineHistory(
  dir: string,
  options: Partial<SyntheticOptions> & { names: string[]; steps?: Step[] },
): string {
  // Numbered within `dir`, not by a count of this module's: one process serves many unit files (issue 45), and a
  // report that names the file must read the same whichever files ran before it.
  let n = 1
  while (existsSync(join(dir, `synthetic-${n}.sqlite`))) n++
  const file = join(dir, `synthetic-${n}.sqlite`)
  const runs = syntheticHistory({ runs: 30, metrics: options.names.length, ...options })
  for (const step of options.steps ?? [])
    for (const run of runs.slice(step.atRun))
      for (const m of run.records[0]!.metrics)
        if (step.metrics.includes(m.name)) {
          m.value *= step.factor
          m.samples = m.samples?.map((v) => v * step.factor) ?? null
          m.ci = m.ci && { low: m.ci.low * step.factor, high: m.ci.high * step.factor }
        }
  using store = HistoryStore.open(file, { create: true })
  store.addRuns(runs)
  return file
}

/** The report of `resultsDir` (none: no records) with the trends of `history`. */
export async function reportWithHistory(history: string, resultsDir: string | null = null) {
  const input = await loadReportInput({ resultsDir, history, now: new Date('2026-03-02T10:00:00Z') })
  return { input, report: buildReport(input) }
}

/** The trends of a report that read its history. @throws when the history was not loaded */
export function loadedTrends(report: ReturnType<typeof buildReport>) {
  const t = report.trends
  if (t?.state !== 'loaded') throw new Error(`trends not loaded: ${JSON.stringify(t)}`)
  return t
}
