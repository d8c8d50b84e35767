/**
 * The bottleneck rule table: each rule reads the evidence gathered for one stage of one run group and, when it
 * applies, raises a flag with the evidence in words and a concrete recommendation. One table, tested rule by rule;
 * the thresholds come from the record's `thresholds.bottleneck` / `thresholds.balance`.
 */

export interface StageEvidence {
  stage: string
  /** One of `thresholds.perf02.stages`: a stage whose work should keep the GPUs busy. */
  gpuStage: boolean
  /** Share of the run's wall time (median over the group's runs), 0..1. */
  share: number
  durationMs: number
  /** Mean over the requested GPUs of their mean utilization in the stage; null without monitor data. */
  utilPct: number | null
  /** Same for GPM SM utilization (Hopper+); null when not read. */
  smUtilPct: number | null
  /** Longest run of idle samples (< 10% utilization) on any requested GPU in the stage, start-up included. */
  longestIdleMs: number | null
  /** Longest idle run between two busy samples (the GPU waiting between batches); older records: longestIdleMs. */
  innerIdleMs: number | null
  /** Time from the stage's start to the GPU's first busy sample (process/CUDA start, model build, loader start). */
  leadingIdleMs: number | null
  /**
   * Mean utilization from the GPU's first busy sample on (the stage's steady state, start-up left out); null in
   * records written before the monitor kept it, and without monitor data.
   */
  steadyUtilPct: number | null
  throttledSamples: number
  /** (max - min) / mean of the per-GPU mean utilizations; null with one GPU. */
  gpuSpread: number | null
  /**
   * Requested GPUs with at least one busy sample (>= the monitor's idle line, 10%) in the stage: more than one means the
   * stage's work was sharded over GPUs. A busy sample rather than a mean above some floor, because the GPU given less
   * work idles once it is done, so its mean sinks the more uneven the sharding. Null without monitor data.
   */
  workingGpus: number | null
  /** The highest per-GPU mean utilization in the stage (%); null without monitor data. */
  busiestGpuUtilPct: number | null
  /** Optional suite evidence (record `stats.stageEvidence[stage]`): real tokens / padded tokens of the batches. */
  packEfficiency: number | null
  /** Optional suite evidence: DataLoader wait per batch grew over the stage (ms per batch, last third vs first). */
  loaderWaitGrowthMs: number | null
  /** GPUs the target used without being asked / asked for and never used (whole run). */
  unexpectedGpus: number[]
  idleRequestedGpus: number[]
}

export interface RuleLimits {
  maxStageShare: number
  minGpuUtilPct: number
  maxSpread: number
  /** `gpu-imbalance` only where the busier GPU is at least this busy (%): below it a spread is noise. */
  imbalanceMinUtilPct: number
}

export interface BottleneckRule {
  id: string
  /** Evidence in words when the rule applies, else null. */
  applies: (e: StageEvidence, limits: RuleLimits) => string | null
  recommendation: string
}

/** The stage of the rules over the whole run (GPUs not asked for, asked for and unused): no pipeline stage. */
export const WHOLE_RUN_STAGE = '(whole run)'

/** An idle stretch this long inside a GPU stage is a gap worth naming. */
export const IDLE_GAP_MS = 1_000
/** Batches this poorly packed are "short" (mostly padding or too few tokens). */
export const SHORT_BATCH_PACK_EFFICIENCY = 0.8
/** SM utilization this far below "utilization" means the GPU is busy on paper only. */
export const BUSY_BUT_IDLE_SM_GAP_PCT = 30

const pct = (value: number) => `${value.toFixed(1)}%`
const lowUtil = (e: StageEvidence, l: RuleLimits) => e.gpuStage && e.utilPct !== null && e.utilPct < l.minGpuUtilPct

export const BOTTLENECK_RULES: readonly BottleneckRule[] = [
  {
    id: 'time-share',
    applies: (e, l) =>
      e.share > l.maxStageShare
        ? `${pct(e.share * 100)} of the wall time (rule: > ${pct(l.maxStageShare * 100)})`
        : null,
    recommendation: 'Optimize this stage first: it bounds the end-to-end time (Amdahl).',
  },
  {
    id: 'low-util-short-batches',
    applies: (e, l) =>
      lowUtil(e, l) && e.packEfficiency !== null && e.packEfficiency < SHORT_BATCH_PACK_EFFICIENCY
        ? `utilization ${pct(e.utilPct ?? 0)} with pack efficiency ${pct(e.packEfficiency * 100)}`
        : null,
    // The rules say what to change in the pipeline; which of the target's options changes it is read from its own
    // --help (bottleneck-options.ts), not written here: another target, or another version, names them otherwise.
    recommendation: "Batches are short: raise the stage's token budget per batch so each batch fills the GPU.",
  },
  {
    id: 'low-util-loader-wait',
    applies: (e, l) =>
      lowUtil(e, l) && e.loaderWaitGrowthMs !== null && e.loaderWaitGrowthMs > 0
        ? `utilization ${pct(e.utilPct ?? 0)} while DataLoader waits grew by ${e.loaderWaitGrowthMs.toFixed(1)} ms/batch`
        : null,
    recommendation: 'The GPU waits for input: add DataLoader workers or pre-tokenize.',
  },
  {
    id: 'low-util-idle-gaps',
    applies: (e, l) =>
      lowUtil(e, l) && e.innerIdleMs !== null && e.innerIdleMs >= IDLE_GAP_MS
        ? `utilization ${pct(e.utilPct ?? 0)}, idle for ${(e.innerIdleMs / 1000).toFixed(1)} s at a stretch between batches`
        : null,
    recommendation:
      'The GPU sits idle between batches: overlap host work with compute (CUDA streams, models kept loaded).',
  },
  {
    // Start-up is not a gap between batches: its cure is to pay it less often or earlier, not to overlap batches.
    id: 'slow-start',
    applies: (e) =>
      e.gpuStage && e.leadingIdleMs !== null && e.leadingIdleMs >= IDLE_GAP_MS
        ? `${(e.leadingIdleMs / 1000).toFixed(1)} s from the stage's start to the GPU's first work`
        : null,
    recommendation:
      'The stage pays start-up before its first batch (process and CUDA start, model build, DataLoader start): keep models and workers alive across stages or start them while the previous stage runs.',
  },
  {
    id: 'low-util',
    applies: (e, l) =>
      lowUtil(e, l)
        ? `mean utilization ${pct(e.utilPct ?? 0)} (rule: >= ${pct(l.minGpuUtilPct)} in a GPU stage)`
        : null,
    recommendation: 'Profile the stage (batch size, workers, host-side preprocessing) before adding GPUs.',
  },
  {
    id: 'busy-not-working',
    applies: (e) =>
      e.gpuStage && e.utilPct !== null && e.smUtilPct !== null && e.utilPct - e.smUtilPct >= BUSY_BUT_IDLE_SM_GAP_PCT
        ? `"utilization" ${pct(e.utilPct)} but SM utilization ${pct(e.smUtilPct)}`
        : null,
    recommendation: 'Kernels occupy few SMs: larger batches, fp16/bf16 and fused attention raise the work per launch.',
  },
  {
    id: 'throttling',
    applies: (e) => (e.throttledSamples > 0 ? `${e.throttledSamples} samples with thermal/power slowdown` : null),
    recommendation: 'Clocks were throttled: check cooling and power caps; timings of this stage are suspect.',
  },
  {
    // Imbalance is a property of work sharded over GPUs: a single-process stage (work on one GPU, the others idle)
    // spreads 200% by construction, and near-idle GPUs spread widely on noise.
    id: 'gpu-imbalance',
    applies: (e, l) =>
      e.gpuSpread !== null &&
      e.gpuSpread > l.maxSpread &&
      (e.workingGpus ?? 0) >= 2 &&
      (e.busiestGpuUtilPct ?? 0) >= l.imbalanceMinUtilPct
        ? `per-GPU utilization spread ${pct(e.gpuSpread * 100)} over ${e.workingGpus} working GPUs, busiest at ${pct(e.busiestGpuUtilPct ?? 0)} (rule: <= ${pct(l.maxSpread * 100)} where the work is sharded and the busiest GPU is at >= ${pct(l.imbalanceMinUtilPct)})`
        : null,
    recommendation:
      'Work is unevenly sharded: shard by tokens, not by sequence count (sort by length, deal round-robin).',
  },
  {
    id: 'unexpected-gpus',
    applies: (e) =>
      e.unexpectedGpus.length > 0 ? `work on GPU ${e.unexpectedGpus.join(', ')}, which was not asked for` : null,
    recommendation:
      'Workers ran outside the requested set (CUDA_VISIBLE_DEVICES=rank remapping): pin each worker to its physical GPU.',
  },
  {
    id: 'idle-requested-gpus',
    applies: (e) =>
      e.idleRequestedGpus.length > 0 ? `GPU ${e.idleRequestedGpus.join(', ')} asked for but never used` : null,
    recommendation: 'A requested GPU did no work: check --gpus / --parallel and that the shard count matches the GPUs.',
  },
]

export interface BottleneckFlag {
  rule: string
  stage: string
  evidence: string
  recommendation: string
}

/**
 * Every rule that applies to `e`. The `low-util` catch-all is dropped when a more specific low-utilization rule
 * already explains it; run-wide rules (GPUs not asked for / unused) are raised once per group by the caller.
 */
export function applyRules(e: StageEvidence, limits: RuleLimits): BottleneckFlag[] {
  const flags: BottleneckFlag[] = []
  for (const rule of BOTTLENECK_RULES) {
    const evidence = rule.applies(e, limits)
    if (evidence !== null) flags.push({ rule: rule.id, stage: e.stage, evidence, recommendation: rule.recommendation })
  }
  const specific = flags.some((f) => f.rule.startsWith('low-util-'))
  return specific ? flags.filter((f) => f.rule !== 'low-util') : flags
}
