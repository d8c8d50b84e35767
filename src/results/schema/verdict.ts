import { z } from 'zod'

/**
 * One judged figure: what reports list, CI gates read and the validation campaign compares with the fault it planted.
 * What each state means is said once, here (VERDICT_MEANINGS); reports show it as their legend.
 */
export const VERDICTS = ['pass', 'fail', 'flag', 'inconclusive', 'error', 'skipped'] as const
export type VerdictValue = (typeof VERDICTS)[number]

/** The meaning of each verdict state, in the order of VERDICTS: the one definition reports' legends show. */
export const VERDICT_MEANINGS: Readonly<Record<VerdictValue, string>> = {
  pass: 'measured, and within the threshold (the whole CI, where there is one)',
  fail: 'measured, and outside the threshold (the whole CI, where there is one)',
  flag: 'measured; worth a look but not a failure (superlinear scaling, a bottleneck, a trade-off)',
  inconclusive:
    'measured, but the data cannot decide (the CI straddles the threshold, too few runs, a reading missing)',
  error:
    'not measured: the runs the check needs failed (the pipeline did not start or crashed), so there is no verdict on what it checks; the detail says why',
  skipped: 'not run here, by design or for want of hardware; the detail says why',
}

export const VerdictSchema = z.object({
  /** Stable key, e.g. `perf02/ESM-2 Feature Extraction/gpu0`, so runs and baselines can be matched. */
  id: z.string().min(1),
  title: z.string().min(1),
  verdict: z.enum(VERDICTS),
  /** The figure judged, in `unit`; null when there was nothing to measure. */
  value: z.number().nullable(),
  unit: z.string().nullable(),
  ci: z.object({ low: z.number(), high: z.number(), level: z.number() }).nullable(),
  /** The rule in words, e.g. `>= 80%` or `1.6x-2.0x`. */
  threshold: z.string().nullable(),
  /** Evidence and reasoning in one or two sentences. */
  detail: z.string(),
  stage: z.string().nullable(),
  gpu: z.number().int().nullable(),
  /**
   * Where a design decides the verdict (the capacity answer's questions: src/capacity/decisions.ts): one of four
   * states (`at-threshold` and `undecided` read `inconclusive` above), the interval level it was judged at, why, and
   * what would decide it. Absent on every other verdict and in records written before.
   */
  decision: z
    .object({
      state: z.enum(['pass', 'fail', 'at-threshold', 'undecided']),
      level: z.number().nullable(),
      why: z.string(),
      needs: z.string().nullable(),
    })
    .optional(),
})
export type Verdict = z.infer<typeof VerdictSchema>
