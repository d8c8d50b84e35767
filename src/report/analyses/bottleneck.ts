/**
 * Bottleneck analysis: for each group of repeated runs (one record, one setup), stages ranked by their share of the
 * wall time, and the flags of the rule table (bottleneck-rules.ts) with evidence and recommendation.
 */
import type { Thresholds } from '../../config/thresholds.ts'
import type { MeasuredRun, ResultRecord } from '../../results/schema/index.ts'
import { applyRules, type BottleneckFlag, type RuleLimits, type StageEvidence } from './bottleneck-rules.ts'
import { type CountedRun, countedRuns, gpuCountOf, groupBy, medianOf, stageDurationsMs } from './runs.ts'

export interface StageShare {
  stage: string
  durationMs: number
  share: number
  gpuStage: boolean
  utilPct: number | null
  smUtilPct: number | null
}

export interface BottleneckGroup {
  recordId: string
  group: string
  gpuCount: number
  runs: number
  wallMs: number
  /** Wall time outside every stage span (interpreter start, model load before stage 1, exit). */
  outsideStagesMs: number
  stages: StageShare[]
  flags: BottleneckFlag[]
}

export interface BottleneckReport {
  groups: BottleneckGroup[]
}

interface StageGpuStats {
  utilPct: number | null
  smUtilPct: number | null
  longestIdleMs: number | null
  throttledSamples: number
  gpuSpread: number | null
}

const mean = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length)

type StageWindow = NonNullable<MeasuredRun['gpu']>['stages'][number]
const windowIndex = new WeakMap<MeasuredRun, Map<string | null, StageWindow>>()

/** The run's monitor stage windows by stage name, built once per run (records share runs in large reports). */
function windowOf(run: MeasuredRun, stage: string): StageWindow | undefined {
  let index = windowIndex.get(run)
  if (!index) {
    index = new Map((run.gpu?.stages ?? []).map((s) => [s.stage, s]))
    windowIndex.set(run, index)
  }
  return index.get(stage)
}

/** Monitor readings of one stage in one run, over the requested GPUs only. */
function stageGpuStats(run: MeasuredRun, stage: string): StageGpuStats | null {
  const window = windowOf(run, stage)
  if (!window || window.gpus.length === 0) return null
  const utils = window.gpus.flatMap((g) => (g.metrics.utilPct ? [g.metrics.utilPct.mean] : []))
  const sms = window.gpus.flatMap((g) => (g.metrics.gpmSmUtilPct ? [g.metrics.gpmSmUtilPct.mean] : []))
  const idles = window.gpus.flatMap((g) => (g.longestIdle ? [g.longestIdle.durationMs] : []))
  const utilMean = mean(utils)
  const spread = utils.length > 1 && utilMean ? (Math.max(...utils) - Math.min(...utils)) / utilMean : null
  return {
    utilPct: utilMean,
    smUtilPct: mean(sms),
    longestIdleMs: idles.length > 0 ? Math.max(...idles) : null,
    throttledSamples: window.throttledSamples,
    gpuSpread: spread,
  }
}

function suiteEvidence(record: ResultRecord | undefined, stage: string, key: string): number | null {
  const byStage = record?.stats.stageEvidence as Record<string, Record<string, unknown>> | undefined
  const value = byStage?.[stage]?.[key]
  return typeof value === 'number' && Number.isFinite(value) ? value : null
}

function evidenceFor(
  runs: CountedRun[],
  stage: string,
  share: number,
  durationMs: number,
  thresholds: Thresholds,
  record?: ResultRecord,
): StageEvidence {
  const stats = runs.flatMap((r) => {
    const s = stageGpuStats(r.measured, stage)
    return s ? [s] : []
  })
  const pick = (f: (s: StageGpuStats) => number | null) =>
    medianOf(stats.flatMap((s) => (f(s) === null ? [] : [f(s) as number])))
  return {
    stage,
    gpuStage: thresholds.perf02.stages.includes(stage),
    share,
    durationMs,
    utilPct: pick((s) => s.utilPct),
    smUtilPct: pick((s) => s.smUtilPct),
    longestIdleMs: pick((s) => s.longestIdleMs),
    throttledSamples: stats.reduce((total, s) => total + s.throttledSamples, 0),
    gpuSpread: pick((s) => s.gpuSpread),
    packEfficiency: suiteEvidence(record, stage, 'packEfficiency'),
    loaderWaitGrowthMs: suiteEvidence(record, stage, 'loaderWaitGrowthMs'),
    unexpectedGpus: [],
    idleRequestedGpus: [],
  }
}

function runWideFlags(runs: CountedRun[], limits: RuleLimits, base: StageEvidence): BottleneckFlag[] {
  const unexpected = new Set(runs.flatMap((r) => r.measured.gpu?.flags.unexpectedGpus ?? []))
  const idle = new Set(runs.flatMap((r) => r.measured.gpu?.flags.idleRequestedGpus ?? []))
  const whole = {
    ...base,
    stage: '(whole run)',
    share: 0,
    gpuStage: false,
    utilPct: null,
    smUtilPct: null,
    throttledSamples: 0,
    gpuSpread: null,
  }
  return applyRules({ ...whole, unexpectedGpus: [...unexpected].sort(), idleRequestedGpus: [...idle].sort() }, limits)
}

function analyzeGroup(runs: CountedRun[], record: ResultRecord): BottleneckGroup {
  const thresholds = record.thresholds
  const limits: RuleLimits = { ...thresholds.bottleneck, maxSpread: thresholds.balance.maxSpread }
  // Means, not medians: a stage's mean over the runs divided by the mean wall time is its share of the total time
  // spent, and the shares of all stages add up to at most 1 (medians taken stage by stage need not).
  const wallMs = mean(runs.map((r) => r.measured.run.wallMs)) ?? 0
  const perStage = groupBy(
    runs.flatMap((r) => stageDurationsMs(r.measured)),
    (s) => s.stage,
  )
  const stages: StageShare[] = []
  const flags: BottleneckFlag[] = []
  for (const [stage, spans] of perStage) {
    const durationMs = (spans.reduce((total, s) => total + s.durationMs, 0) / runs.length) as number
    const e = evidenceFor(runs, stage, wallMs > 0 ? durationMs / wallMs : 0, durationMs, thresholds, record)
    stages.push({ stage, durationMs, share: e.share, gpuStage: e.gpuStage, utilPct: e.utilPct, smUtilPct: e.smUtilPct })
    flags.push(...applyRules(e, limits))
  }
  stages.sort((a, b) => b.share - a.share)
  const inside = stages.reduce((total, s) => total + s.durationMs, 0)
  const first = runs[0] as CountedRun
  const base = evidenceFor([], '(whole run)', 0, wallMs, thresholds)
  flags.push(...runWideFlags(runs, limits, base))
  return {
    recordId: record.id,
    group: first.group,
    gpuCount: gpuCountOf(first.measured),
    runs: runs.length,
    wallMs,
    outsideStagesMs: Math.max(0, wallMs - inside),
    stages,
    flags,
  }
}

/** Pure: records in, ranked stages and flags out. Failed and skipped records have no counted runs. */
export function analyzeBottlenecks(records: readonly ResultRecord[]): BottleneckReport {
  const byId = new Map(records.map((r) => [r.id, r]))
  const groups = groupBy(countedRuns(records), (r) => `${r.recordId}\u0000${r.group}`)
  return {
    groups: [...groups.values()].map((runs) =>
      analyzeGroup(runs, byId.get((runs[0] as CountedRun).recordId) as ResultRecord),
    ),
  }
}
