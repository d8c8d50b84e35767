/** All analyses of one run, as one plain object: what every renderer reads (and what summary.json holds). */

import { analyzeCapacityRecords, type CapacityReport } from '../../capacity/report-analysis.ts'
import { runGroups } from '../../results/runs.ts'
import type { InvalidRecord } from '../../results/store.ts'
import type { BenchmarkTaskResult, ReportInput, RunOutcome } from '../input.ts'
import { analyzeBottlenecks, type BottleneckReport } from './bottleneck.ts'
import { analyzeE2e, type E2eReport } from './e2e.ts'
import { analyzeFleet, type FleetReport } from './fleet.ts'
import { analyzeKinds, type KindsReport } from './kinds.ts'
import { analyzeMemory, type MemoryReport } from './memory.ts'
import { analyzePerf02, type Perf02Report } from './perf02.ts'
import { analyzeRegression, type RegressionReport } from './regression.ts'
import { analyzeScaling, type ScalingReport } from './scaling.ts'
import { analyzeStudyRecords, type StudyReport } from './study.ts'
import { type SuiteLine, suiteLine } from './suites.ts'
import { analyzeTrends, type TrendsReport } from './trends.ts'

/**
 * The shape of the JSON reports (summary.json, bottleneck.json, perf02.json), one number for the three. Bumped when a
 * shape changes; src/report/read-json.ts names an older file's version and what to do. 1: until 2026-11-24 (rows
 * of one record each: `recordId`; bottleneck.json and perf02.json carried no version). 2: rows of every record
 * sharing their runs (`recordIds`), the fleet, the trends, scaling CIs with their coverage, a version in every file.
 */
export const REPORT_SCHEMA_VERSION = 2

export interface Report {
  schemaVersion: typeof REPORT_SCHEMA_VERSION
  runId: string | null
  resultsDir: string | null
  generatedAt: string
  outcome: RunOutcome
  counts: { records: number; completed: number; failed: number; skipped: number; partial: number; invalid: number }
  invalid: InvalidRecord[]
  suites: SuiteLine[]
  bottleneck: BottleneckReport
  perf02: Perf02Report
  scaling: ScalingReport
  memory: MemoryReport
  e2e: E2eReport
  capacity: CapacityReport
  /** Settings studies (kind `study`): the best setting beside the default, one table each; none without a study. */
  study: StudyReport
  /** Hosts, GPU models, bad nodes and sharded runs of a merged report; null for one host's run without shards. */
  fleet: FleetReport | null
  kinds: KindsReport
  regression: RegressionReport | null
  /** Headline metrics over a history database's runs, with change points; null when no history was asked for. */
  trends: TrendsReport | null
  benchmarks: BenchmarkTaskResult[]
  notes: string[]
}

/** Pure: the input in, every analysis out. Never throws for bad records: those arrive as `input.invalid`. */
export function buildReport(input: ReportInput): Report {
  const { records } = input
  // One grouping of the runs by record and setup, shared by the analyses that read runs per setup; bottleneck and
  // PERF-02 read a partial record's kept runs too (shown provisional: an interrupted measurement kept figures).
  const groups = runGroups(records)
  const withPartial = runGroups(records, true)
  const notes = [...input.seriesNotes]
  if (input.baseline && input.baseline.invalid.length > 0)
    notes.push(`baseline ${input.baseline.dir}: ${input.baseline.invalid.length} invalid record file(s) left out`)
  if (input.trends?.state === 'unavailable')
    // The reason names the file (history-input.ts makes sure).
    notes.push(`history not used, no trends: ${input.trends.reason}`)
  return {
    schemaVersion: REPORT_SCHEMA_VERSION,
    runId: input.runId,
    resultsDir: input.resultsDir,
    generatedAt: input.generatedAt,
    outcome: input.outcome,
    counts: {
      records: records.length,
      completed: records.filter((r) => r.state === 'completed').length,
      failed: records.filter((r) => r.state === 'failed').length,
      skipped: records.filter((r) => r.state === 'skipped').length,
      partial: records.filter((r) => r.state === 'partial').length,
      invalid: input.invalid.length,
    },
    invalid: input.invalid,
    suites: records.map(suiteLine),
    bottleneck: analyzeBottlenecks(records, withPartial),
    perf02: analyzePerf02(records, input.series, withPartial),
    scaling: analyzeScaling(records),
    memory: analyzeMemory(records, groups),
    e2e: analyzeE2e(records),
    capacity: analyzeCapacityRecords(records),
    study: analyzeStudyRecords(records),
    fleet: analyzeFleet(records, input.sources),
    kinds: analyzeKinds(records),
    regression: input.baseline ? analyzeRegression(records, input.baseline.records, input.baseline.dir) : null,
    trends: analyzeTrends(input.trends),
    benchmarks: input.benchmarks,
    notes,
  }
}
