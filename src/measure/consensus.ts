/**
 * Consensus agreement: a candidate run's consensus predictions against a reference run's, as VirNucPro judges its own
 * v2.0 path (its compare_virnucpro_outputs.py; 99.87% in its phase-10 run, docs/UPSTREAM.md): the share of common IDs
 * whose Is_Virus agrees, and beside it how far the two max scores moved. The rows are
 * `prediction_results_highestscore.csv`'s: one per Modified_ID (a chunk of an input sequence, its six frames joined).
 * FP16 and packing move scores by more than 1e-3 while leaving the labels; a label is what a user reads.
 * Pure; never throws on data.
 */

/** One row of prediction_results_highestscore.csv (the runner's reader produces these). */
export interface ConsensusRow {
  id: string
  isVirus: boolean
  maxScores: readonly [number, number]
}

/** How far the scores of the common IDs moved: two scores an ID. */
export interface ScoreDiffs {
  count: number
  /** Largest and mean |candidate - reference|; 0 when nothing is compared. A non-finite difference counts as infinite. */
  maxAbs: number
  meanAbs: number
  /** Scores whose |diff| exceeds `step`, and their share of `count` (0 when nothing is compared). */
  over: number
  overShare: number
  step: number
}

export interface ConsensusComparison {
  referenceCount: number
  candidateCount: number
  /** IDs in both (each counted once). */
  common: number
  /** The reference's IDs the candidate lacks; the candidate's the reference lacks; rows whose ID came before in its file. */
  missing: number
  extra: number
  duplicates: number
  /** The same IDs on both sides, none twice. */
  sameIds: boolean
  /** Common IDs whose Is_Virus agrees, and their share of `common` (null when none is common). */
  agreeing: number
  labelAgreement: number | null
  scores: ScoreDiffs
}

/** The score difference whose share is reported: the equivalence suite's default atol, which FP16 moves past. */
export const SCORE_DIFF_STEP = 1e-3

function indexById(rows: readonly ConsensusRow[]): { byId: Map<string, ConsensusRow>; duplicates: number } {
  const byId = new Map<string, ConsensusRow>()
  let duplicates = 0
  for (const row of rows) {
    if (byId.has(row.id)) duplicates++
    else byId.set(row.id, row)
  }
  return { byId, duplicates }
}

const absDiff = (a: number, b: number) => {
  const d = Math.abs(a - b)
  return Number.isFinite(d) ? d : Number.POSITIVE_INFINITY
}

/** Compares the candidate's consensus rows with the reference's, by ID (each file's first row of an ID). */
export function compareConsensus(
  reference: readonly ConsensusRow[],
  candidate: readonly ConsensusRow[],
  step: number = SCORE_DIFF_STEP,
): ConsensusComparison {
  const ref = indexById(reference)
  const cand = indexById(candidate)
  let common = 0
  let agreeing = 0
  const scores = { count: 0, maxAbs: 0, sum: 0, over: 0 }
  for (const [id, r] of ref.byId) {
    const c = cand.byId.get(id)
    if (c === undefined) continue
    common++
    if (c.isVirus === r.isVirus) agreeing++
    for (const i of [0, 1] as const) {
      const d = absDiff(c.maxScores[i], r.maxScores[i])
      scores.count++
      scores.maxAbs = Math.max(scores.maxAbs, d)
      scores.sum += d
      if (d > step) scores.over++
    }
  }
  const missing = ref.byId.size - common
  const extra = cand.byId.size - common
  const duplicates = ref.duplicates + cand.duplicates
  return {
    referenceCount: reference.length,
    candidateCount: candidate.length,
    common,
    missing,
    extra,
    duplicates,
    sameIds: missing === 0 && extra === 0 && duplicates === 0,
    agreeing,
    labelAgreement: common === 0 ? null : agreeing / common,
    scores: {
      count: scores.count,
      maxAbs: scores.maxAbs,
      meanAbs: scores.count === 0 ? 0 : scores.sum / scores.count,
      over: scores.over,
      overShare: scores.count === 0 ? 0 : scores.over / scores.count,
      step,
    },
  }
}

/**
 * The settings study's rule on a comparison: `same` when the IDs are the same and the labels agree at least
 * `minAgreement`; `differs` otherwise, with `shortfall` the agreement's distance under it (null where the IDs differ);
 * `empty` when neither side has a row (nothing compared, no verdict).
 */
export function judgeConsensus(
  c: ConsensusComparison,
  minAgreement: number,
): { state: 'same' | 'empty' } | { state: 'differs'; why: 'ids' | 'labels'; shortfall: number | null } {
  if (c.referenceCount === 0 && c.candidateCount === 0) return { state: 'empty' }
  if (!c.sameIds) return { state: 'differs', why: 'ids', shortfall: null }
  const agreement = c.labelAgreement ?? 0
  return agreement >= minAgreement
    ? { state: 'same' }
    : { state: 'differs', why: 'labels', shortfall: minAgreement - agreement }
}
