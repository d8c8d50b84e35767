import { z } from 'zod'

/**
 * One judged figure: what reports list, CI gates read and the validation campaign compares with the fault it planted.
 * `pass`/`fail` against a threshold; `flag` for something worth a look that is not a failure (superlinear scaling, a
 * bottleneck); `inconclusive` when the data cannot decide (CI straddles the threshold, too few runs); `skipped` with why.
 */
export const VERDICTS = ['pass', 'fail', 'flag', 'inconclusive', 'skipped'] as const
export type VerdictValue = (typeof VERDICTS)[number]

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
})
export type Verdict = z.infer<typeof VerdictSchema>
