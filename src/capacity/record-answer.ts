/**
 * One capacity answer per capacity record, however far its measurement got: a written record's own analysis, or, for
 * a measurement still running or interrupted (a partial record read from the run journal), the same analysis refitted
 * from the runs it kept (capacity/refit.ts), marked provisional with its count of runs. Every reader of a run
 * directory (the reports, `capacity`) goes through here, so none says "no model" where the kept runs support one.
 */
import type { ResultRecord, Verdict } from '../results/schema/index.ts'
import { refitOptions } from './analysis-options.ts'
import { analyzeCapacityRuns, type CapacityStats } from './analyze.ts'
import { type AnswerStatus, type CapacityAnswer, capacityAnswer } from './answer.ts'
import { refitInput } from './refit.ts'
import type { RunSources } from './refit-sources.ts'

/** Runs as the record keeps them (a partial record's progress and monitor summaries are in its runs). */
const IN_RECORD: RunSources = { progressOf: () => null }

/** Whether a record's stats hold a capacity analysis (records written before a model could be fitted do not). */
const analysed = (r: ResultRecord) => Array.isArray((r.stats as Partial<CapacityStats>).configurations)

/** The record's capacity analysis, refitted from its kept runs where it has none of its own; null: none possible. */
export function recordAnalysis(
  record: ResultRecord,
  sources: RunSources = IN_RECORD,
): { stats: CapacityStats; verdicts: Verdict[] } | null {
  if (record.kind !== 'capacity') return null
  if (analysed(record)) return { stats: record.stats as unknown as CapacityStats, verdicts: record.verdicts }
  const input = refitInput([record], { gpuStages: record.thresholds.perf02.stages, ...sources })
  if (!input.configs.some((c) => new Set(c.runs.map((r) => r.size)).size >= 2)) return null
  return analyzeCapacityRuns(input.configs, input.frame, record.thresholds, [], refitOptions([record]))
}

/** The record's one count of runs: kept of planned for a partial record, all of them for a written one. */
export function recordStatus(record: ResultRecord): AnswerStatus {
  const measured = record.runs.filter((r) => !r.warmup).length
  const nvml = record.provenance.nvml
  const host = nvml.available ? { hostGpus: nvml.gpus.length } : {}
  if (record.state === 'partial')
    return { final: false, keptRuns: record.kept?.runs ?? measured, plannedRuns: record.kept?.planned ?? null, ...host }
  return { final: true, keptRuns: measured, plannedRuns: measured, ...host }
}

/** The record with its (provisional) analysis in place: what the reports read. Unchanged when there is none. */
export function withProvisionalAnalysis(record: ResultRecord, sources?: RunSources): ResultRecord {
  if (record.kind !== 'capacity' || analysed(record)) return record
  const analysis = recordAnalysis(record, sources)
  if (!analysis) return record
  return { ...record, stats: analysis.stats as unknown as Record<string, unknown>, verdicts: analysis.verdicts }
}

/** The answer of a capacity record, or null where no configuration could be fitted yet. */
export function recordAnswer(record: ResultRecord, sources?: RunSources): CapacityAnswer | null {
  const analysis = recordAnalysis(record, sources)
  return analysis ? capacityAnswer(analysis.stats, analysis.verdicts, recordStatus(record)) : null
}
