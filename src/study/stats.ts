/**
 * The settings study's record (kind `study`, `stats` of this shape): which of a grid of the target's options, screened
 * by successive halving, runs fastest with the same outputs as the default, and the capacity answer of that setting
 * beside the default's (6 M hours per GPU count, k GPUs against 1, the verdicts it flips).
 */
import type { Figure } from '../capacity/answer.ts'
import type { GridValue } from '../engine/sweep-grid.ts'
import type { ConsensusComparison, DecisionState } from '../measure/index.ts'

/** One screening round: the size it ran at and the settings measured there (the default always among them). */
export interface StudyRound {
  round: number
  records: number
  settings: string[]
}

/** Why a setting left the study, and in which round. */
export interface StudyDrop {
  round: number
  records: number
  /** `slower`: in the slower half of its round; `outputs-differ`: not the default's outputs; `failed`: a run failed. */
  why: 'slower' | 'outputs-differ' | 'failed' | 'no-outputs'
  detail: string
}

/** One setting's screening figure in one round: its runs' median wall time and that median's interval. */
export interface StudyScreening {
  round: number
  records: number
  runs: number
  /** Median wall time (ms) and its interval; null when no run completed. */
  wallMs: { median: number; low: number | null; high: number | null } | null
}

/**
 * The consensus comparison behind a setting's outputs verdict (measure/consensus.ts): the file the figures come from,
 * the threshold, the IDs and labels, and the score differences reported beside them.
 */
export type StudyConsensus = ConsensusComparison & { file: string; minAgreement: number }

/** A setting's outputs against the default's, on the same input (the last round it was measured in). */
export interface StudyOutputs {
  /**
   * true: the same IDs with consensus labels agreeing at least the threshold; false: not; null: nothing to compare on
   * one side (no verdict).
   */
  equal: boolean | null
  records: number
  detail: string
  /** The figures; null where nothing was compared; absent in records written before the consensus rule (issue 56). */
  consensus?: StudyConsensus | null
}

/** The capacity answer of a setting that reached the end (the best, and the default). */
export interface StudyCapacity {
  /** The capacity record it was written to. */
  recordId: string
  statusText: string
  perGpuCount: {
    gpuCount: number
    productionH: Figure | null
    production: DecisionState | null
    /**
     * Why this GPU count's runs cannot support a projection (its capacity answer decides nothing from them), in its
     * model's words; null or absent (records before issue 47) when they can. No study verdict is read from such figures.
     */
    unsupported?: string | null
  }[]
  /** k GPUs against 1 at 6 M. */
  speedups: { gpuCount: number; speedup: Figure | null; threshold: number; state: DecisionState | null }[]
  /** Each decision's state, by verdict id. */
  decisions: { id: string; question: string; state: DecisionState }[]
}

export interface StudyRow {
  label: string
  /** The options this setting adds to the default's command line ([] for the default). */
  extraArgs: string[]
  isDefault: boolean
  screening: StudyScreening[]
  outputs: StudyOutputs | null
  dropped: StudyDrop | null
  capacity: StudyCapacity | null
  /** Verdicts this setting decides otherwise than the default (both measured to the end); [] when none. */
  flips: { id: string; question: string; from: DecisionState; to: DecisionState }[]
}

export interface StudyStats {
  /** The grid as given (option -> values; true/false for a flag or a switch pair, null for an option not added). */
  grid: Record<string, GridValue[]>
  /** The configuration screened (its label: the GPU count the study was run for). */
  screenedOn: string
  production: number
  rounds: StudyRound[]
  /** The fastest setting with the default's outputs at the last round; the default when none beats it. */
  best: string | null
  rows: StudyRow[]
  /** Grid points that repeat the default's own options: measured once, as the default. */
  sameAsDefault: number
  /**
   * The switch pairs whose default state was not known (the default's command line gives neither side and the
   * target's help states none), in words: each side measured as a setting. Absent when none (and in older records).
   */
  defaultsUnknown?: string[]
  /** The target's own options per stage, read from its `--help` (pipeline/stage-options.ts); [] when unread. */
  stageOptions: { stage: string; options: { flag: string; help: string }[] }[]
  /** Why `stageOptions` is empty, when it is. */
  stageOptionsProblem: string | null
}

/**
 * A flip: a verdict both answers decided, on opposite sides (PASS to FAIL or FAIL to PASS). A setting left UNDECIDED or
 * AT THRESHOLD where the default decided, or the other way round, has flipped nothing: its runs said less, not otherwise.
 */
export function isFlip(from: DecisionState, to: DecisionState): boolean {
  return (from === 'pass' && to === 'fail') || (from === 'fail' && to === 'pass')
}
