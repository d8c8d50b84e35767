/**
 * Oracles of the validation campaign: given a suite's record and the fault that was planted, did the suite reach the
 * verdict it should have? Each check returns data (never throws for a wrong verdict) so a test can assert on it and
 * annotate the figure. These restate the expected outcome independently of the suites' own code on purpose: a check
 * that reused the suite's judging function would agree with the suite whatever it did.
 */
import type { ResultRecord, Verdict, VerdictValue } from '../results/schema/index.ts'

export class ValidationError extends Error {
  override name = 'ValidationError'
}

/**
 * The verdict `id` of `record`.
 * @throws ValidationError naming the id, the record and the ids it does hold.
 */
export function verdictOf(record: ResultRecord, id: string): Verdict {
  const found = record.verdicts.find((v) => v.id === id)
  if (!found) {
    const ids = record.verdicts.map((v) => v.id).join(', ')
    throw new ValidationError(`record '${record.id}' has no verdict '${id}' (it has: ${ids || 'none'})`)
  }
  return found
}

export type RateCheck =
  | { state: 'within' | 'outside'; estimated: number; planted: number; relativeError: number; tolerance: number }
  | { state: 'missing'; reason: string }

/**
 * Compares an estimated rate with the planted one: within when |estimated - planted| <= tolerance x planted.
 * @throws RangeError when planted is not a positive finite number or tolerance is negative.
 */
export function checkRate(estimated: number | null, planted: number, tolerance: number): RateCheck {
  if (!(planted > 0) || !Number.isFinite(planted)) throw new RangeError(`planted rate must be > 0, got ${planted}`)
  if (!(tolerance >= 0)) throw new RangeError(`tolerance must be >= 0, got ${tolerance}`)
  if (estimated === null || !Number.isFinite(estimated)) return { state: 'missing', reason: 'no estimate' }
  const relativeError = Math.abs(estimated - planted) / planted
  const state = relativeError <= tolerance ? 'within' : 'outside'
  return { state, estimated, planted, relativeError, tolerance }
}

/**
 * The in-run leak check against a planted `leak-mb`: the `memory/esm2-slope/gpu<g>` verdict's value is its estimated
 * growth in MiB per ESM-2 batch, and refpipe leaks exactly `plantedMib` per batch.
 */
export function checkLeakRate(record: ResultRecord, gpu: number, plantedMib: number, tolerance = 0.2) {
  const v = verdictOf(record, `memory/esm2-slope/gpu${gpu}`)
  return { verdict: v.verdict, rate: checkRate(v.value, plantedMib, tolerance), detail: v.detail }
}

export interface Band {
  low: number
  high: number
}

/**
 * The scaling verdict a speedup estimate and its CI call for (docs of src/measure/scaling.ts, restated): no CI ->
 * inconclusive; CI wholly below the band -> fail; CI reaching below it -> inconclusive; estimate above the band ->
 * flag (superlinear); otherwise pass.
 */
export function expectedSpeedupVerdict(
  estimate: number,
  ci: { low: number; high: number } | null,
  band: Band | null,
): VerdictValue {
  if (ci === null || band === null) return 'inconclusive'
  if (ci.high < band.low) return 'fail'
  if (ci.low < band.low) return 'inconclusive'
  return estimate > band.high ? 'flag' : 'pass'
}

/** `1.6x-2x` (the scaling verdicts' threshold text) -> the band; null for anything else. */
export function parseBand(threshold: string | null): Band | null {
  const m = /^(\d+(?:\.\d+)?)x-(\d+(?:\.\d+)?)x$/.exec(threshold?.trim() ?? '')
  return m ? { low: Number(m[1]), high: Number(m[2]) } : null
}

/** Whether a speedup verdict says what its own estimate and CI call for (and its CI holds the estimate). */
export function speedupConsistency(v: Verdict): { consistent: boolean; expected: VerdictValue; reason: string } {
  // No estimate: nothing was measured on a side, which is no verdict on the speedup (VERDICT_MEANINGS.error).
  if (v.value === null)
    return { consistent: v.verdict === 'error', expected: 'error', reason: `no speedup estimate: ${v.detail}` }
  const expected = expectedSpeedupVerdict(v.value, v.ci, parseBand(v.threshold))
  const ciHolds = v.ci === null || (v.ci.low <= v.value && v.value <= v.ci.high)
  const consistent = v.verdict === expected && ciHolds
  const ci = v.ci ? `[${v.ci.low.toFixed(3)}, ${v.ci.high.toFixed(3)}]` : 'no CI'
  const reason = `speedup ${v.value.toFixed(3)}x ${ci} against ${v.threshold ?? 'no band'}: expected ${expected}, suite said ${v.verdict}`
  return { consistent, expected, reason }
}

/**
 * The physical GPU of a worker label (`worker 0`) for a run that asked for `gpus` (refpipe and VirNucPro v2 give
 * worker r the r-th GPU of the list); null when the label or the index does not fit.
 */
export function gpuOfWorker(worker: string, gpus: readonly number[]): number | null {
  const m = /^worker (\d+)$/.exec(worker.trim())
  if (!m) return null
  return gpus[Number(m[1])] ?? null
}

/**
 * The verdict "at least `min`" calls for (restated from the suites' rule): with a CI, pass when it lies wholly at or
 * above, fail when wholly below, inconclusive when it straddles; without one (a single run), the value decides.
 */
export function expectedAtLeastVerdict(
  value: number | null,
  ci: { low: number; high: number } | null,
  min: number,
): VerdictValue {
  if (value === null) return 'inconclusive'
  if (ci === null) return value >= min ? 'pass' : 'fail'
  if (ci.low >= min) return 'pass'
  return ci.high < min ? 'fail' : 'inconclusive'
}
