/**
 * An invocation's progress (issue 44): every run announced as it happens (run-events.ts), kept in the invocation's
 * progress ledger (ledger.ts), folded into where the invocation stands (tally.ts), forecast from the runs measured
 * (forecast.ts) and from earlier invocations under the same key and plan (earlier-progress.ts, plan-key.ts; dropped
 * when this invocation's runs disagree with theirs: forecast-check.ts) or, before any, from each file's plan and the
 * cost prior of the host's GPU kind (prior-forecast.ts), and said in one line after each
 * run and at the start (run-progress-line.ts, start-line.ts). The entry the rest of the code imports.
 */
export { type EarlierProgress, fileForecastMs, readEarlierProgress } from './earlier-progress.ts'
export { type FileAhead, runEstimateMs, runsLeftMs, type TimeLeft, timeLeft } from './forecast.ts'
export {
  DISAGREEMENT_FACTOR,
  type Disagreement,
  droppedText,
  forecastDisagreement,
  withoutForecasts,
} from './forecast-check.ts'
export { appendLedgerLine, type LedgerLine, ledgerPath, ledgerTail, parseLedger } from './ledger.ts'
export { NOT_WORK_SETTINGS, type PlanKey, planKey, WORK_SETTINGS } from './plan-key.ts'
export {
  type FilePrior,
  type PriorForecast,
  priorFileMs,
  priorFileRuns,
  priorRatio,
  willSkip,
} from './prior-forecast.ts'
export { announceRun, type RunEvent, type RunPhase, watchRuns } from './run-events.ts'
export {
  doneLine,
  type InvocationStatus,
  measurementPlanLine,
  type RunPosition,
  reusedLine,
  runLine,
  secondsText,
  spanText,
  statusText,
  suiteName,
  waitingLine,
} from './run-progress-line.ts'
export { openProgress, type ProgressContext } from './setup.ts'
export { type InvocationStart, startLine } from './start-line.ts'
export { type ArmProgress, applyLine, armOf, newTally, runsPlannedSoFar, type Tally } from './tally.ts'
