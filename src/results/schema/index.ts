export { MonitorSummarySchema } from './monitor-summary.ts'
export {
  PROGRESS_MAX_POINTS,
  PROGRESS_SOURCES,
  type ProgressSource,
  type StageProgress,
  StageProgressSchema,
} from './progress.ts'
export { type Provenance, ProvenanceSchema } from './provenance.ts'
export {
  type MeasuredRun,
  MeasuredRunSchema,
  RESULT_KINDS,
  RESULT_SCHEMA_VERSION,
  type ResultKind,
  type ResultRecord,
  ResultRecordSchema,
} from './record.ts'
export { EXIT_CLASSES, RunRecordSchema } from './run-record.ts'
export { type ShardStats, ShardStatsSchema } from './shard-stats.ts'
export { VERDICT_MEANINGS, VERDICTS, type Verdict, VerdictSchema, type VerdictValue } from './verdict.ts'
