/**
 * What the history stores of a run's records: per record its keys (host, GPU model, target profile, commit, suite
 * version, createdAt) and its headline metrics. Pure: records in, rows out; the store writes them.
 */
import { gpuModelOf } from '../results/runs.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import { type HeadlineMetric, headlineMetrics } from './metrics.ts'

/** Whose commit a record's `commit` is: the target checkout's, or (bundled reference pipeline) the suite's own. */
export type CommitOf = 'target' | 'suite' | 'unknown'

export interface HistoryRecordInput {
  recordId: string
  kind: string
  state: string
  createdAt: string
  host: string
  gpuModel: string
  targetProfile: string
  commit: string
  commitOf: CommitOf
  commitDirty: boolean | null
  suiteVersion: string
  regressionThreshold: number
  metrics: Omit<HeadlineMetric, 'recordId'>[]
}

export interface HistoryRunInput {
  runId: string
  sourceDir: string
  records: HistoryRecordInput[]
}

/**
 * The commit a record measured. A target checkout (VIRNUCPRO_DIR) has its own; the bundled reference pipeline lives in
 * this repository, so the suite's commit is what changed it.
 */
export function commitOf(record: ResultRecord): { commit: string; commitOf: CommitOf; dirty: boolean | null } {
  const { target, suite } = record.provenance
  if (target.git) return { commit: target.git.commit, commitOf: 'target', dirty: target.git.dirty }
  if (suite.git) return { commit: suite.git.commit, commitOf: 'suite', dirty: suite.git.dirty }
  return { commit: 'unknown', commitOf: 'unknown', dirty: null }
}

function recordInput(record: ResultRecord, metrics: HeadlineMetric[]): HistoryRecordInput {
  const { commit, commitOf: whose, dirty } = commitOf(record)
  return {
    recordId: record.id,
    kind: record.kind,
    state: record.state,
    createdAt: record.createdAt,
    host: record.provenance.host.hostname,
    gpuModel: gpuModelOf(record.provenance),
    targetProfile: record.provenance.target.profile,
    commit,
    commitOf: whose,
    commitDirty: dirty,
    suiteVersion: record.provenance.suite.version,
    regressionThreshold: record.thresholds.regression.timeThreshold,
    metrics: metrics.filter((m) => m.recordId === record.id).map(({ recordId: _, ...m }) => m),
  }
}

/** The runs in `records` (a run directory normally holds one run ID), each with its records and their metrics. */
export function historyRunsOf(records: readonly ResultRecord[], sourceDir: string): HistoryRunInput[] {
  const byRun = new Map<string, ResultRecord[]>()
  for (const record of records) {
    const list = byRun.get(record.provenance.runId) ?? []
    list.push(record)
    byRun.set(record.provenance.runId, list)
  }
  return [...byRun].map(([runId, list]) => {
    const metrics = headlineMetrics(list)
    return { runId, sourceDir, records: list.map((r) => recordInput(r, metrics)) }
  })
}
