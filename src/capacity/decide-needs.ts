/**
 * What a verdict left undecided when the design stopped would need, in words (the record keeps it with the verdict):
 * the runs a PASS waits on, or the fewest GPU-minutes of runs (repeats at the largest measured size, or a larger size
 * the input gives) after which its interval, if its estimate holds, would clear the threshold.
 */
import { decideInterval } from '../measure/index.ts'
import {
  type DecideCandidate,
  type DecideContext,
  decideCandidates,
  halfWidthAfterRuns,
  passingSide,
  preconditionSteps,
  what,
} from './decide-design.ts'
import type { Decision } from './decisions.ts'
import type { ConfigCapacity } from './model.ts'

/** Repeats weighed when saying what an undecided verdict would need. */
export const MAX_RUNS_NEEDED = 64

export function neededFor(d: Decision, configs: readonly ConfigCapacity[], ctx: DecideContext): string {
  const from = configs.filter((c) => d.from.includes(c.gpuCount))
  if (d.ci && passingSide(d) && decideInterval(d.ci, d.threshold, d.direction, ctx.margin) !== 'undecided') {
    const steps = from.flatMap((c) => preconditionSteps(c, { ...ctx, room: Number.POSITIVE_INFINITY }))
    return steps.length > 0
      ? `it needs ${what(steps[0]!)} first`
      : Number.isFinite(ctx.maxRecords)
        ? `the input (${ctx.maxRecords.toLocaleString('en-US')} records) cannot give what a PASS needs`
        : // A generated input grows without limit: what is missing is no size (issue 44 printed `∞ records`).
          'no run the design can make gives what a PASS needs'
  }
  if (d.estimate === null || !d.ci) return 'it needs runs that give it an interval at all'
  const distance = Math.abs(d.estimate - d.threshold) / Math.abs(d.estimate)
  // Repeats at the largest measured size, up to MAX_RUNS_NEEDED, and the larger sizes the input gives.
  const options = from.flatMap((c) => {
    const largest = c.sizes.at(-1)!
    const repeats = Array.from(
      { length: MAX_RUNS_NEEDED },
      (_, i): DecideCandidate => ({
        config: c,
        kind: 'repeat',
        records: largest.records,
        sequences: largest.sequences,
        runs: i + 1,
        gpuMinutes: ((i + 1) * largest.medianWallMs * ctx.held) / 60_000,
      }),
    )
    const larger = decideCandidates(c, { ...ctx, canResize: true }).filter((k) => k.kind === 'new size')
    return [...repeats, ...larger].filter((k) => {
      const after = halfWidthAfterRuns(d, k, configs)
      return after !== null && after < distance
    })
  })
  const cheapest = options.sort((a, b) => a.gpuMinutes - b.gpuMinutes)[0]
  return cheapest
    ? `about ${what(cheapest)} more, if its estimate holds`
    : `more than ${MAX_RUNS_NEEDED} runs at the largest size or any larger one the input gives: its estimate sits ${(distance * 100).toFixed(1)}% from the threshold`
}
