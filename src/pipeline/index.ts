/** Public API of the target runner: profiles, one run -> RunRecord, log events, output readers. */
export type { Command, PredictOptions } from './command.ts'
export type { StageExtraValue, SummaryBlock, TargetEvent } from './events.ts'
export { classifyExit, type ExitClass } from './exit-class.ts'
export { killAllRunsSync, liveRunCount } from './live-runs.ts'
export { logFileLines } from './log-file-lines.ts'
export { createLogParser, type LogParser } from './log-parser.ts'
export {
  type HighestScoreRow,
  OutputFormatError,
  type PredictionRow,
  readHighestScores,
  readPredictionResults,
} from './output-readers.ts'
export { collectOutputs, type OutputsFound } from './outputs.ts'
export type { Preflight } from './preflight.ts'
export {
  PROFILES,
  referenceProfile,
  selectProfile,
  TargetConfigError,
  type TargetProfile,
  virnucproProfile,
} from './profiles.ts'
export type { GpuCheck, GpuMemoryHeld, RunRecord } from './run-record.ts'
export { type RunTargetOptions, runTarget } from './runner.ts'
export { STAGE_CROSSCHECK_TOLERANCE_S, type StageMismatch, type StageSpan } from './stage-spans.ts'
