/**
 * The capacity answer, in one room: "will my sample finish in time on k GPUs". What the rest of the suite imports
 * from it is exported here (the folder's files import each other directly):
 * - measuring: suite.ts (the interleaved measurement of every configuration at every size, and the record), topup.ts
 *   and design.ts (the sequential design: which run next, at which size, within the GPU-minute budget), targets.ts
 *   (the CI and budget each pipeline aims at);
 * - reading a run: runs.ts (a run's parts), rates.ts and steady.ts (each stage's steady part from inside the run, and
 *   which source gave it);
 * - the model: analyze.ts (the entry: fit, project, judge), model.ts, parts.ts, builds.ts (a model built per file),
 *   per-file.ts (what is missing where builds cannot be counted), shared.ts, bend.ts, support.ts, dominant.ts,
 *   stage-capacity.ts and util-projection.ts (a GPU stage's utilization), compare.ts (k GPUs against 1), verdicts.ts;
 * - re-analysis of stored runs: refit.ts and refit-sources.ts (`virnucpro-bench capacity`).
 * Its renderers stay in src/report/ (capacity-rows, capacity-markdown, capacity-html, capacity-chart) and src/cli/.
 */
export { analyzeCapacityRuns, type CapacityStats, type ConfigMeasurements, sequenceEquivalents } from './analyze.ts'
export type { ComparisonCapacity } from './compare.ts'
export type { ConfigCapacity, StageCapacity } from './model.ts'
export { RATE_SOURCE_NAMES } from './rates.ts'
export { type HeldOut, refitInput } from './refit.ts'
export { lacksBusySpans } from './refit-sources.ts'
export { largestArms, measureCapacity, runCapacitySuite, writeCapacityRecord } from './suite.ts'
export { type CapacityTargets, capacityTargets } from './targets.ts'
export { CAPACITY_CI_TARGET } from './topup.ts'
