/**
 * Bottleneck analysis: for each group of repeated runs (one record, one setup), stages ranked by their share of the
 * wall time, each GPU stage split into fixed cost (start-up) and steady state (bottleneck-capacity.ts), and the flags
 * of the rule table (bottleneck-rules.ts) with evidence and recommendation.
 */

import { tooShortToJudge } from '../../config/judging.ts'
import { type CountedRun, gpuCountOf, type RunGroup, runGroups, stageDurationsMs } from '../../results/runs.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import { type SizeModelLookup, type StageSplit, sizeModelLookup, stageSplit } from './bottleneck-capacity.ts'
import { evidenceFor } from './bottleneck-evidence.ts'
import { flaggedStages, type StageAdvice, stageAdvice } from './bottleneck-options.ts'
import {
  applyRules,
  type BottleneckFlag,
  type RuleLimits,
  type StageEvidence,
  WHOLE_RUN_STAGE,
} from './bottleneck-rules.ts'
import { capacityStageOptions, newestStudy } from './bottleneck-study.ts'

export interface StageShare extends StageSplit {
  stage: string
  durationMs: number
  share: number
  gpuStage: boolean
  utilPct: number | null
  smUtilPct: number | null
}

export interface BottleneckGroup {
  /** The first record holding these runs (CI figure names key on it). */
  recordId: string
  /** Every record holding these same runs (runs.ts runGroups). */
  recordIds: string[]
  group: string
  gpuCount: number
  runs: number
  wallMs: number
  /** Runs of a partial record (a measurement stopped mid-way): shown, marked provisional. */
  provisional: boolean
  /** Wall time outside every stage span (interpreter start, model load before stage 1, exit). */
  outsideStagesMs: number
  stages: StageShare[]
  flags: BottleneckFlag[]
}

export interface BottleneckReport {
  groups: BottleneckGroup[]
  /**
   * Each flagged stage once (first flagged first): the target's own options for it and what the newest settings study
   * measured of them, or how to run one (bottleneck-options.ts).
   */
  advice: StageAdvice[]
}

const mean = (values: number[]) => (values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length)

/** The rules over the whole run (GPUs not asked for / asked for and unused), raised once per group. */
function runWideFlags(runs: CountedRun[], limits: RuleLimits, wallMs: number): BottleneckFlag[] {
  const unexpected = new Set(runs.flatMap((r) => r.measured.gpu?.flags.unexpectedGpus ?? []))
  const idle = new Set(runs.flatMap((r) => r.measured.gpu?.flags.idleRequestedGpus ?? []))
  const whole: StageEvidence = {
    stage: WHOLE_RUN_STAGE,
    gpuStage: false,
    share: 0,
    durationMs: wallMs,
    utilPct: null,
    smUtilPct: null,
    longestIdleMs: null,
    innerIdleMs: null,
    leadingIdleMs: null,
    steadyUtilPct: null,
    throttledSamples: 0,
    gpuSpread: null,
    workingGpus: null,
    busiestGpuUtilPct: null,
    packEfficiency: null,
    loaderWaitGrowthMs: null,
    unexpectedGpus: [...unexpected].sort(),
    idleRequestedGpus: [...idle].sort(),
  }
  return applyRules(whole, limits)
}

/** Each stage's time summed over the runs, stages in first-seen order. */
function stageTotalsMs(runs: readonly CountedRun[]): Map<string, number> {
  const totals = new Map<string, number>()
  for (const r of runs)
    for (const { stage, durationMs } of stageDurationsMs(r.measured))
      totals.set(stage, (totals.get(stage) ?? 0) + durationMs)
  return totals
}

function analyzeGroup(
  { runs, record, recordIds, provisional }: RunGroup,
  sizeModels: SizeModelLookup,
): BottleneckGroup {
  const thresholds = record.thresholds
  const limits: RuleLimits = { ...thresholds.bottleneck, maxSpread: thresholds.balance.maxSpread }
  // Means, not medians: a stage's mean over the runs divided by the mean wall time is its share of the total time
  // spent, and the shares of all stages add up to at most 1 (medians taken stage by stage need not).
  const wallMs = mean(runs.map((r) => r.measured.run.wallMs)) ?? 0
  const stages: StageShare[] = []
  const flags: BottleneckFlag[] = []
  const first = runs[0] as CountedRun
  const gpuCount = gpuCountOf(first.measured)
  for (const [stage, totalMs] of stageTotalsMs(runs)) {
    const durationMs = totalMs / runs.length
    const e = evidenceFor(runs, stage, wallMs > 0 ? durationMs / wallMs : 0, durationMs, thresholds, record)
    stages.push({
      stage,
      durationMs,
      share: e.share,
      gpuStage: e.gpuStage,
      utilPct: e.utilPct,
      smUtilPct: e.smUtilPct,
      ...stageSplit(e, first.group, gpuCount, sizeModels),
    })
    // A stage too short to judge raises nothing (config/judging.ts); bottleneck.md says below which duration.
    if (!tooShortToJudge(durationMs)) flags.push(...applyRules(e, limits))
  }
  stages.sort((a, b) => b.share - a.share)
  const inside = stages.reduce((total, s) => total + s.durationMs, 0)
  flags.push(...runWideFlags(runs, limits, wallMs))
  return {
    recordId: record.id,
    recordIds,
    group: first.group,
    gpuCount,
    runs: runs.length,
    provisional,
    wallMs,
    outsideStagesMs: Math.max(0, wallMs - inside),
    stages,
    flags,
  }
}

/**
 * Pure: records in, ranked stages and flags out, and for each flagged stage the target's options the newest settings
 * study (a `study` record among them) measured. Failed and skipped records have no counted runs; a partial record's
 * kept runs are analysed where the caller's groups hold them (buildReport's do), their groups marked provisional.
 * @param groups the records' run groups, when the caller has them already (buildReport shares one grouping).
 */
export function analyzeBottlenecks(
  records: readonly ResultRecord[],
  groups: readonly RunGroup[] = runGroups(records),
): BottleneckReport {
  const sizeModels = sizeModelLookup(records)
  const analyzed = groups.map((g) => analyzeGroup(g, sizeModels))
  const study = newestStudy(records)
  const known = study === null ? capacityStageOptions(records) : null
  return { groups: analyzed, advice: flaggedStages(analyzed).map((stage) => stageAdvice(stage, study, known)) }
}
