/** Builds the verdict entries every suite emits (src/results/schema/verdict.ts), with the CI cut to what the schema holds. */
import type { Verdict, VerdictValue } from '../results/schema/index.ts'

export interface VerdictInput {
  id: string
  title: string
  verdict: VerdictValue
  value?: number | null
  unit?: string | null
  ci?: { low: number; high: number; level: number } | null
  threshold?: string | null
  detail: string
  stage?: string | null
  gpu?: number | null
}

export function verdict(v: VerdictInput): Verdict {
  const value = v.value === undefined || v.value === null || !Number.isFinite(v.value) ? null : v.value
  return {
    id: v.id,
    title: v.title,
    verdict: v.verdict,
    value,
    unit: v.unit ?? null,
    // An interval with an unbounded end (a ratio whose draws reach a zero denominator, a break-even never reached)
    // is no interval a record can hold or a reader judge by: the figure stands without one.
    ci:
      v.ci && Number.isFinite(v.ci.low) && Number.isFinite(v.ci.high)
        ? { low: v.ci.low, high: v.ci.high, level: v.ci.level }
        : null,
    threshold: v.threshold ?? null,
    detail: v.detail,
    stage: v.stage ?? null,
    gpu: v.gpu ?? null,
  }
}

/**
 * Judges "at least `min`" from a median and its CI: pass when the whole CI (or the value, with no CI) is at or above,
 * fail when the whole CI is below, inconclusive when it straddles.
 */
export function judgeAtLeast(value: number, ci: { low: number; high: number } | null, min: number): VerdictValue {
  const low = ci?.low ?? value
  const high = ci?.high ?? value
  if (low >= min) return 'pass'
  if (high < min) return 'fail'
  return 'inconclusive'
}

/** The mirror of judgeAtLeast for "at most `max`". */
export function judgeAtMost(value: number, ci: { low: number; high: number } | null, max: number): VerdictValue {
  const low = ci?.low ?? value
  const high = ci?.high ?? value
  if (high <= max) return 'pass'
  if (low > max) return 'fail'
  return 'inconclusive'
}

export interface Analysis<S> {
  stats: S
  verdicts: Verdict[]
}
