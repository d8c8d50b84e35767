/**
 * The evidence the bottleneck rules read for one stage of one run group: per run, the monitor's readings of the stage
 * window over the requested GPUs; over the group, their medians. Written as plain loops: a large report gathers
 * evidence for ~10^5 (group, stage) pairs, and the intermediate arrays of a map/filter style cost more in garbage
 * collection than the arithmetic.
 */
import type { Thresholds } from '../../config/thresholds.ts'
import { IDLE_UTIL_PCT } from '../../monitor/summary/idle-throttle.ts'
import { type CountedRun, medianOf } from '../../results/runs.ts'
import type { MeasuredRun, ResultRecord } from '../../results/schema/index.ts'
import type { StageEvidence } from './bottleneck-rules.ts'

type StageWindow = NonNullable<MeasuredRun['gpu']>['stages'][number]

/** The run's monitor window of `stage` (a run has ~10 windows: a scan beats building an index per run). */
function windowOf(run: MeasuredRun, stage: string): StageWindow | undefined {
  const stages = run.gpu?.stages ?? []
  // From the end: were a stage listed twice, its last summary is the one that counts.
  for (let i = stages.length - 1; i >= 0; i--) if (stages[i]?.stage === stage) return stages[i]
  return undefined
}

/** Per-run readings, one list per statistic, each holding only the runs where it was measured. */
interface Readings {
  utilPct: number[]
  smUtilPct: number[]
  longestIdleMs: number[]
  innerIdleMs: number[]
  leadingIdleMs: number[]
  steadyUtilPct: number[]
  gpuSpread: number[]
  workingGpus: number[]
  busiestUtilPct: number[]
  throttledSamples: number
}

/** Adds one run's readings of one stage window: means over the requested GPUs, the longest idle, the spread. */
function addWindow(window: StageWindow, into: Readings): void {
  let utilSum = 0
  let utilN = 0
  let utilMin = Number.POSITIVE_INFINITY
  let utilMax = Number.NEGATIVE_INFINITY
  let smSum = 0
  let smN = 0
  // A GPU worked in the stage when it had one busy sample (the monitor's idle line): its mean may be low, since a
  // worker with less work idles once done, and that is the very imbalance to find.
  let working = 0
  let idleMax: number | null = null
  let innerMax: number | null = null
  let leadingMax: number | null = null
  let steadySum = 0
  let steadyN = 0
  for (const g of window.gpus) {
    const util = g.metrics.utilPct?.mean
    if (util !== undefined) {
      utilSum += util
      utilN++
      utilMin = Math.min(utilMin, util)
      utilMax = Math.max(utilMax, util)
      if ((g.metrics.utilPct?.max ?? 0) >= IDLE_UTIL_PCT) working++
    }
    const sm = g.metrics.gpmSmUtilPct?.mean
    if (sm !== undefined) {
      smSum += sm
      smN++
    }
    if (g.longestIdle) idleMax = Math.max(idleMax ?? g.longestIdle.durationMs, g.longestIdle.durationMs)
    // Summaries written before the monitor told start-up from gaps lack both fields: their longest idle stands in for
    // the gap (what the rule read then), and start-up is unknown.
    const inner = g.longestInnerIdle === undefined ? g.longestIdle : g.longestInnerIdle
    if (inner) innerMax = Math.max(innerMax ?? inner.durationMs, inner.durationMs)
    if (typeof g.leadingIdleMs === 'number') leadingMax = Math.max(leadingMax ?? g.leadingIdleMs, g.leadingIdleMs)
    // Absent from summaries written before the monitor kept it: then unknown, never estimated here.
    if (typeof g.steadyUtilPct === 'number') {
      steadySum += g.steadyUtilPct
      steadyN++
    }
  }
  const utilMean = utilN > 0 ? utilSum / utilN : null
  if (utilMean !== null) {
    into.utilPct.push(utilMean)
    into.workingGpus.push(working)
    into.busiestUtilPct.push(utilMax)
  }
  if (smN > 0) into.smUtilPct.push(smSum / smN)
  if (idleMax !== null) into.longestIdleMs.push(idleMax)
  if (innerMax !== null) into.innerIdleMs.push(innerMax)
  if (leadingMax !== null) into.leadingIdleMs.push(leadingMax)
  if (steadyN > 0) into.steadyUtilPct.push(steadySum / steadyN)
  // (max - min) / mean; undefined with one GPU or a mean of 0.
  if (utilN > 1 && utilMean) into.gpuSpread.push((utilMax - utilMin) / utilMean)
  into.throttledSamples += window.throttledSamples
}

function suiteEvidence(record: ResultRecord | undefined, stage: string, key: string): number | null {
  const byStage = record?.stats.stageEvidence as Record<string, Record<string, unknown>> | undefined
  const value = byStage?.[stage]?.[key]
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

/** Evidence for one stage of a group of runs; `share` and `durationMs` come from the caller's time accounting. */
export function evidenceFor(
  runs: readonly CountedRun[],
  stage: string,
  share: number,
  durationMs: number,
  thresholds: Thresholds,
  record?: ResultRecord,
): StageEvidence {
  const readings: Readings = {
    utilPct: [],
    smUtilPct: [],
    longestIdleMs: [],
    innerIdleMs: [],
    leadingIdleMs: [],
    steadyUtilPct: [],
    gpuSpread: [],
    workingGpus: [],
    busiestUtilPct: [],
    throttledSamples: 0,
  }
  for (const r of runs) {
    const window = windowOf(r.measured, stage)
    if (window && window.gpus.length > 0) addWindow(window, readings)
  }
  // medianOf of nothing is null: no call (and no trip through the statistics module) needed.
  const med = (values: number[]) => (values.length === 0 ? null : medianOf(values))
  return {
    stage,
    gpuStage: thresholds.perf02.stages.includes(stage),
    share,
    durationMs,
    utilPct: med(readings.utilPct),
    smUtilPct: med(readings.smUtilPct),
    longestIdleMs: med(readings.longestIdleMs),
    innerIdleMs: med(readings.innerIdleMs),
    leadingIdleMs: med(readings.leadingIdleMs),
    steadyUtilPct: med(readings.steadyUtilPct),
    throttledSamples: readings.throttledSamples,
    gpuSpread: med(readings.gpuSpread),
    workingGpus: med(readings.workingGpus),
    busiestGpuUtilPct: med(readings.busiestUtilPct),
    packEfficiency: suiteEvidence(record, stage, 'packEfficiency'),
    loaderWaitGrowthMs: suiteEvidence(record, stage, 'loaderWaitGrowthMs'),
    unexpectedGpus: [],
    idleRequestedGpus: [],
  }
}
