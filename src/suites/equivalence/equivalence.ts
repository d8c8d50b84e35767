/**
 * Equivalence suite (kind `equivalence`): a candidate configuration's predictions against a reference configuration's
 * on the same input (reference pipeline: fp16 vs fp32; VirNucPro: packing on vs off), by src/measure's
 * comparePredictions. `stats` has the shape EquivalenceStats.
 */
import type { Thresholds } from '../../config/thresholds.ts'
import { completedRuns, type MeasuredConfiguration } from '../../engine/measure-configuration.ts'
import { failureReason } from '../../engine/record.ts'
import { type Analysis, verdict } from '../../engine/verdict.ts'
import { comparePredictions, type EquivalenceResult } from '../../measure/index.ts'
import { type PredictionRow, readPredictionResults } from '../../pipeline/output-readers.ts'
import type { OutputsFound } from '../../pipeline/outputs.ts'

export interface EquivalenceStats {
  reference: string
  candidate: string
  referenceRun: string | null
  candidateRun: string | null
  result: EquivalenceResult | null
}

/** The first completed measured run with outputs found (any completed run when only warm-ups completed); null: none. */
export function runWithOutputs(
  m: MeasuredConfiguration,
): { label: string; outputs: Extract<OutputsFound, { state: 'found' }> } | null {
  const runs = [...completedRuns(m), ...m.observations.filter((o) => o.measured.run.exitClass === 'completed')]
  const run = runs.find((o) => o.measured.run.outputs.state === 'found')
  const outputs = run?.measured.run.outputs
  return run && outputs?.state === 'found' ? { label: run.measured.label, outputs } : null
}

/** Predictions of the run runWithOutputs picks. */
export async function predictionsOf(
  m: MeasuredConfiguration,
): Promise<{ label: string; rows: PredictionRow[] } | null> {
  const run = runWithOutputs(m)
  if (!run) return null
  const rows: PredictionRow[] = []
  for await (const row of readPredictionResults(run.outputs.predictions.path)) rows.push(row)
  return { label: run.label, rows }
}

/**
 * Compares the two configurations' predictions.
 * @throws OutputFormatError when a predictions file is malformed (the runner checked it once already).
 */
export async function analyzeEquivalence(
  reference: MeasuredConfiguration,
  candidate: MeasuredConfiguration,
  t: Thresholds,
): Promise<Analysis<EquivalenceStats>> {
  const [ref, cand] = await Promise.all([predictionsOf(reference), predictionsOf(candidate)])
  const { rtol, atol, minLabelAgreement } = t.equivalence
  const result = ref && cand ? comparePredictions(ref.rows, cand.rows, { rtol, atol, minLabelAgreement }) : null
  const stats: EquivalenceStats = {
    reference: reference.config.label,
    candidate: candidate.config.label,
    referenceRun: ref?.label ?? null,
    candidateRun: cand?.label ?? null,
    result,
  }
  const base = {
    id: `equivalence/${candidate.config.label}-vs-${reference.config.label}`,
    title: `outputs of ${candidate.config.label} equivalent to ${reference.config.label}`,
    threshold: `same IDs, labels agree >= ${minLabelAgreement * 100}%, scores allclose (rtol ${rtol}, atol ${atol})`,
  }
  if (!result) {
    // Nothing to compare on a side is no verdict on equivalence: `error`, with the failure that left it empty.
    const missing = [!ref && reference.config.label, !cand && candidate.config.label].filter(Boolean).join(', ')
    const why = failureReason([reference, candidate])
    const detail = `no completed run with outputs: ${missing}${why ? `; ${why}` : ''}`
    return { stats, verdicts: [verdict({ ...base, verdict: 'error', detail })] }
  }
  const detail = `${result.commonCount} common IDs; max |diff| ${result.maxAbsDiff.toExponential(2)}, mean ${result.meanAbsDiff.toExponential(2)}; ${result.disagreements.count} disagreement(s)${result.reasons.length ? `: ${result.reasons.join('; ')}` : ''}`
  const agreement = result.labelAgreement === null ? null : result.labelAgreement * 100
  return {
    stats,
    verdicts: [verdict({ ...base, verdict: result.verdict, value: agreement, unit: '% labels agree', detail })],
  }
}
