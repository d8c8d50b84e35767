/**
 * The capacity answer, in one room: "will my sample finish in time on k GPUs". What the rest of the suite imports
 * from it is exported here (the folder's files import each other directly):
 * - measuring: suite.ts (the interleaved measurement of every configuration at every size, and the record), topup.ts
 *   and design.ts (the sequential design: which run next, at which size, within the GPU-minute budget; what each pipeline
 *   aims at is a setting: src/config/capacity-targets.ts);
 * - reading a run: runs.ts (a run's parts), rates.ts and steady.ts (each stage's steady part from inside the run, and
 *   which source gave it);
 * - the model: analyze.ts (the entry: fit, project, judge), model.ts, parts.ts, builds.ts (a model built per file),
 *   per-file.ts (what is missing where builds cannot be counted), shared.ts, bend.ts, support.ts, dominant.ts,
 *   stage-capacity.ts and util-projection.ts (a GPU stage's utilization), compare.ts (k GPUs against 1), verdicts.ts;
 * - re-analysis of stored runs: refit.ts and refit-sources.ts (`virnucpro-bench capacity`);
 * - naming: purpose.ts (a record's id and name), known-answer.ts (a check's record, never a configuration's answer);
 * - for the reports: report-analysis.ts (the capacity section of a run's reports) and table.ts (its rows).
 * The layouts of those rows stay with the other layouts in src/report/render/ (capacity-markdown, capacity-html,
 * capacity-chart, capacity-text) and the command's in src/cli/.
 */

export { type CapacityTargets, capacityTargets } from '../config/capacity-targets.ts'
export { analysisOptions, plannedLooks, recordLooks, refitOptions } from './analysis-options.ts'
export {
  type AnalysisOptions,
  analyzeCapacityRuns,
  type CapacityStats,
  type ConfigMeasurements,
  PLAIN_ANALYSIS,
  sequenceEquivalents,
} from './analyze.ts'
export { checkedRefit } from './checked-refit.ts'
export type { ComparisonCapacity } from './compare.ts'
export { type Decision, decisionWord } from './decisions.ts'
export { isKnownAnswer, KNOWN_ANSWER_PREFIX, knownAnswerName } from './known-answer.ts'
export type { ConfigCapacity, StageCapacity } from './model.ts'
export { CapacityPlanError, type CapacitySizes, capacitySizes } from './probe.ts'
export type { RecordName } from './purpose.ts'
export { RATE_SOURCE_NAMES } from './rates.ts'
export { type HeldOut, type RefitOptions, refitInput } from './refit.ts'
export { lacksBusySpans } from './refit-sources.ts'
export {
  type CapacityOptions,
  largestArms,
  measureCapacity,
  runCapacitySuite,
  type SizedConfiguration,
  writeCapacityRecord,
} from './suite.ts'
export { CAPACITY_CI_TARGET } from './topup.ts'
