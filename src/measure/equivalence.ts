/**
 * Output equivalence: a candidate run's predictions against a reference run's. Same IDs, label agreement, and scores
 * close in numpy's `allclose` sense, |candidate - reference| <= atol + rtol * |reference| (default 1e-3 each: fp16 vs
 * fp32 and batch-order differences move scores in the 4th decimal, not the 2nd).
 */

/** One row of prediction_results.txt: the runner's output reader produces these. */
export interface PredictionRow {
  id: string
  label: 'virus' | 'others'
  scores: readonly [number, number]
}

export interface EquivalenceOptions {
  rtol?: number
  atol?: number
  /** Most disagreements (and missing/extra IDs) listed; the counts are always complete. */
  maxListed?: number
  /** Share of common IDs whose labels must agree for a pass; 1 by default. */
  minLabelAgreement?: number
}

export interface Disagreement {
  id: string
  kind: 'label' | 'score' | 'label-and-score'
  reference: PredictionRow
  candidate: PredictionRow
  maxAbsDiff: number
}

export interface EquivalenceResult {
  verdict: 'pass' | 'fail'
  reasons: string[]
  referenceCount: number
  candidateCount: number
  commonCount: number
  sameIds: boolean
  missingIds: { count: number; listed: string[] }
  extraIds: { count: number; listed: string[] }
  duplicateIds: { count: number; listed: string[] }
  /** Share of common IDs with the same label; null when there are none in common. */
  labelAgreement: number | null
  scoresAllClose: boolean
  /** Over every score of every common ID; 0 when there are none. */
  maxAbsDiff: number
  meanAbsDiff: number
  disagreements: { count: number; listed: Disagreement[] }
  rtol: number
  atol: number
}

interface Listing<T> {
  count: number
  listed: T[]
}

function push<T>(listing: Listing<T>, item: T, cap: number): void {
  listing.count++
  if (listing.listed.length < cap) listing.listed.push(item)
}

function indexById(rows: readonly PredictionRow[], duplicates: Listing<string>, cap: number) {
  const byId = new Map<string, PredictionRow>()
  for (const row of rows) {
    if (byId.has(row.id)) push(duplicates, row.id, cap)
    else byId.set(row.id, row)
  }
  return byId
}

function isClose(candidate: number, reference: number, rtol: number, atol: number): boolean {
  return Math.abs(candidate - reference) <= atol + rtol * Math.abs(reference)
}

function compareRow(reference: PredictionRow, candidate: PredictionRow, rtol: number, atol: number) {
  const diffs = reference.scores.map((score, i) => Math.abs((candidate.scores[i] as number) - score))
  // A NaN or infinite score compares as "not close" with an infinite difference, never as a pass.
  const absDiffs = diffs.map((diff) => (Number.isFinite(diff) ? diff : Number.POSITIVE_INFINITY))
  const close = reference.scores.every((score, i) => isClose(candidate.scores[i] as number, score, rtol, atol))
  return { absDiffs, close, sameLabel: reference.label === candidate.label }
}

function judge(result: Omit<EquivalenceResult, 'verdict' | 'reasons'>, minLabelAgreement: number) {
  const reasons: string[] = []
  if (!result.sameIds) reasons.push(`IDs differ: ${result.missingIds.count} missing, ${result.extraIds.count} extra`)
  if (result.duplicateIds.count > 0) reasons.push(`${result.duplicateIds.count} duplicate ID(s)`)
  if (result.labelAgreement !== null && result.labelAgreement < minLabelAgreement) {
    reasons.push(`label agreement ${result.labelAgreement} < ${minLabelAgreement}`)
  }
  if (!result.scoresAllClose) reasons.push(`scores not close (max |diff| ${result.maxAbsDiff})`)
  return { verdict: reasons.length === 0 ? ('pass' as const) : ('fail' as const), reasons }
}

interface Tally {
  missingIds: Listing<string>
  disagreements: Listing<Disagreement>
  commonCount: number
  sameLabels: number
  allClose: boolean
  maxAbsDiff: number
  sumAbsDiff: number
}

/** Walks the reference IDs once, comparing each with its candidate row. */
function tally(
  referenceById: Map<string, PredictionRow>,
  candidateById: Map<string, PredictionRow>,
  rtol: number,
  atol: number,
  maxListed: number,
): Tally {
  const t: Tally = {
    missingIds: { count: 0, listed: [] },
    disagreements: { count: 0, listed: [] },
    commonCount: 0,
    sameLabels: 0,
    allClose: true,
    maxAbsDiff: 0,
    sumAbsDiff: 0,
  }
  for (const [id, ref] of referenceById) {
    const cand = candidateById.get(id)
    if (cand === undefined) {
      push(t.missingIds, id, maxListed)
      continue
    }
    t.commonCount++
    const { absDiffs, close, sameLabel } = compareRow(ref, cand, rtol, atol)
    for (const diff of absDiffs) {
      t.maxAbsDiff = Math.max(t.maxAbsDiff, diff)
      t.sumAbsDiff += diff
    }
    if (sameLabel) t.sameLabels++
    t.allClose &&= close
    if (!sameLabel || !close) {
      const kind = !sameLabel && !close ? 'label-and-score' : sameLabel ? 'score' : 'label'
      push(t.disagreements, { id, kind, reference: ref, candidate: cand, maxAbsDiff: Math.max(...absDiffs) }, maxListed)
    }
  }
  return t
}

/** Compares candidate predictions with reference predictions. Pure; never throws on data. */
export function comparePredictions(
  reference: readonly PredictionRow[],
  candidate: readonly PredictionRow[],
  options: EquivalenceOptions = {},
): EquivalenceResult {
  const { rtol = 1e-3, atol = 1e-3, maxListed = 50, minLabelAgreement = 1 } = options
  const duplicateIds: Listing<string> = { count: 0, listed: [] }
  const referenceById = indexById(reference, duplicateIds, maxListed)
  const candidateById = indexById(candidate, duplicateIds, maxListed)
  const t = tally(referenceById, candidateById, rtol, atol, maxListed)
  const extraIds: Listing<string> = { count: 0, listed: [] }
  for (const id of candidateById.keys()) if (!referenceById.has(id)) push(extraIds, id, maxListed)
  const result = {
    referenceCount: reference.length,
    candidateCount: candidate.length,
    commonCount: t.commonCount,
    sameIds: t.missingIds.count === 0 && extraIds.count === 0,
    missingIds: t.missingIds,
    extraIds,
    duplicateIds,
    labelAgreement: t.commonCount === 0 ? null : t.sameLabels / t.commonCount,
    scoresAllClose: t.allClose,
    maxAbsDiff: t.maxAbsDiff,
    meanAbsDiff: t.commonCount === 0 ? 0 : t.sumAbsDiff / (2 * t.commonCount),
    disagreements: t.disagreements,
    rtol,
    atol,
  }
  return { ...judge(result, minLabelAgreement), ...result }
}
