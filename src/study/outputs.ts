/**
 * Whether a setting gives the default's results: its predictions file against the default's on the same input, by
 * the equivalence suite's comparison and tolerances (thresholds `equivalence`: same IDs, labels agreeing, scores
 * allclose). A setting that is faster at something else does not count; one with nothing to compare is no verdict.
 */
import type { Thresholds } from '../config/thresholds.ts'
import type { MeasuredConfiguration } from '../engine/measure-configuration.ts'
import { comparePredictions } from '../measure/index.ts'
import { predictionsOf } from '../suites/equivalence/equivalence.ts'
import type { StudyOutputs } from './stats.ts'

/**
 * The setting's outputs against the default's (each one's first completed run with a predictions file).
 * @throws OutputFormatError when a predictions file is malformed (the runner checked it once already).
 */
export async function compareOutputs(
  reference: MeasuredConfiguration,
  candidate: MeasuredConfiguration,
  records: number,
  t: Thresholds,
): Promise<StudyOutputs> {
  const [ref, cand] = await Promise.all([predictionsOf(reference), predictionsOf(candidate)])
  const { rtol, atol, minLabelAgreement } = t.equivalence
  if (!ref || !cand) {
    const side = [!ref && `the default (${reference.config.label})`, !cand && candidate.config.label]
    return {
      equal: null,
      records,
      detail: `no completed run with a predictions file: ${side.filter(Boolean).join(', ')}`,
    }
  }
  const r = comparePredictions(ref.rows, cand.rows, { rtol, atol, minLabelAgreement })
  const agreement = r.labelAgreement === null ? 'no common IDs' : `labels agree ${(r.labelAgreement * 100).toFixed(1)}%`
  const figures = `${r.commonCount.toLocaleString('en-US')} predictions, ${agreement}, max |score diff| ${r.maxAbsDiff.toPrecision(2)}`
  return r.verdict === 'pass'
    ? { equal: true, records, detail: `${figures} (rtol ${rtol}, atol ${atol})` }
    : { equal: false, records, detail: `${r.reasons.join('; ')} (${figures})` }
}
