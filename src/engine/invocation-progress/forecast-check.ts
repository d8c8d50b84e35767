/**
 * Whether a forecast from an earlier invocation still stands once this invocation has runs of its own (issue 58). The
 * earlier invocation ran the same plan under the same key, so its runs of one configuration should take about as long
 * as this one's; when they do not (the earlier ledger said a run takes 2 s and this invocation's take 20 s: another
 * machine's load, a throttled GPU, a cache gone cold), its file spans forecast nothing honest either, and the forecast
 * is dropped, said once. The rule: the mean of this invocation's runs of an arm, phase for phase, against the earlier
 * invocation's mean of the same file, arm and phase; more than DISAGREEMENT_FACTOR apart either way drops it. Runs of
 * one configuration measured twice spread by a few percent to 30% (a cold first process; docs/results: the H200
 * main job's 1,000-record runs 9.8-11.6 s); a factor of 2 is far outside that and still catches the 10x of the issue.
 */
import type { EarlierProgress } from './earlier-progress.ts'
import type { RunPhase } from './run-events.ts'
import { secondsText } from './run-progress-line.ts'
import { type Tally, wallKey } from './tally.ts'

/** How far apart (either way) this invocation's runs and the earlier one's may be before its forecast is dropped. */
export const DISAGREEMENT_FACTOR = 2

export interface Disagreement {
  /** The earlier invocation's mean wall time of the arm's runs in that phase, and this one's, ms. */
  earlierMs: number
  nowMs: number
}

const mean = (values: readonly number[]): number | null =>
  values.length === 0 ? null : values.reduce((sum, v) => sum + v, 0) / values.length

/**
 * Whether this invocation's runs of `arm` in `phase` (its tally, kept runs of a continuation included: they are this
 * host's) disagree with the earlier invocation's forecast for `file`; null where they agree or there is nothing to set
 * against each other (the earlier invocation never ran that arm in that phase, or a wall time is not positive).
 */
export function forecastDisagreement(
  earlier: EarlierProgress,
  t: Tally,
  at: { file: string; arm: string; phase: RunPhase },
): Disagreement | null {
  const earlierMs = earlier.files[at.file]?.armsMs?.[at.arm]?.[at.phase] ?? null
  const nowMs = mean((t.wallsMs.get(wallKey(at.file, at.arm))?.[at.phase] ?? []).filter((w) => w > 0))
  if (earlierMs === null || nowMs === null || !(earlierMs > 0)) return null
  const ratio = nowMs / earlierMs
  return ratio > DISAGREEMENT_FACTOR || ratio < 1 / DISAGREEMENT_FACTOR ? { earlierMs, nowMs } : null
}

/** `forecast dropped: the earlier invocation's runs took 2.0 s, these take 20.0 s (over 2x apart); ...`. */
export function droppedText(d: Disagreement): string {
  return `forecast dropped: the earlier invocation's runs took ${secondsText(d.earlierMs)}, these take ${secondsText(d.nowMs)} (over ${DISAGREEMENT_FACTOR}x apart), so files not started have no forecast until they run`
}

/** The earlier progress without its forecasts (the runs a continuation gets back stay: the journal gives them). */
export const withoutForecasts = (earlier: EarlierProgress): EarlierProgress => ({ ...earlier, files: {} })
