/**
 * Reads what the bottleneck report (src/report/analyses/bottleneck.ts) says about one record: its flags, and a stage's
 * share of the wall time, so a validation test asserts the report a person reads, not a copy of its rules.
 */
import { analyzeBottlenecks, type BottleneckGroup } from '../report/analyses/bottleneck.ts'
import type { BottleneckFlag } from '../report/analyses/bottleneck-rules.ts'
import type { ResultRecord } from '../results/schema/index.ts'

/** Rules that say the GPU is starved by the host (input or host work between batches). */
export const STARVATION_RULES = ['low-util-idle-gaps', 'low-util-loader-wait'] as const

/**
 * Rules whose firing means something is wrong with the run itself (a planted fault's signature), as opposed to the
 * `time-share` rule, which names the largest stage of every healthy run too, the `low-util` catch-all, and
 * `slow-start`, which every stage that starts a process or a model pays (a property of the pipeline's design).
 */
export const FAULT_SIGNATURE_RULES = [
  ...STARVATION_RULES,
  'low-util-short-batches',
  'throttling',
  'gpu-imbalance',
  'unexpected-gpus',
  'idle-requested-gpus',
] as const

/** The report's groups for one record (one group per setup; a validation record has one). */
export function bottleneckGroups(record: ResultRecord): BottleneckGroup[] {
  return analyzeBottlenecks([record]).groups
}

/** Every flag the report raises for `record`, optionally only those of `stage`. */
export function bottleneckFlags(record: ResultRecord, stage?: string): BottleneckFlag[] {
  const flags = bottleneckGroups(record).flatMap((g) => g.flags)
  return stage === undefined ? flags : flags.filter((f) => f.stage === stage)
}

/** Flags of the fault-signature rules (FAULT_SIGNATURE_RULES). */
export function faultSignatureFlags(record: ResultRecord): BottleneckFlag[] {
  const rules: readonly string[] = FAULT_SIGNATURE_RULES
  return bottleneckFlags(record).filter((f) => rules.includes(f.rule))
}

/** The stage's share of the wall time (0..1) as the report ranks it; null when the report has no such stage. */
export function stageShare(record: ResultRecord, stage: string): number | null {
  const share = bottleneckGroups(record)
    .flatMap((g) => g.stages)
    .find((s) => s.stage === stage)?.share
  return share ?? null
}

/** The stage the report ranks first (largest share); null when it ranks none. */
export function topStage(record: ResultRecord): { stage: string; share: number } | null {
  const first = bottleneckGroups(record)[0]?.stages[0]
  return first ? { stage: first.stage, share: first.share } : null
}

/** One line per flag for annotations: `rule @ stage: evidence -> recommendation`. */
export function describeFlags(flags: readonly BottleneckFlag[]): string {
  if (flags.length === 0) return 'no flags'
  return flags.map((f) => `${f.rule} @ ${f.stage}: ${f.evidence} -> ${f.recommendation}`).join(' | ')
}
