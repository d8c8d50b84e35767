import type { StageExtraValue, SummaryBlock, TargetEvent } from './events.ts'

/** One stage as seen two ways: our receive times (ms since spawn) and the log's own durations. */
export interface StageSpan {
  index: number | null
  name: string
  /** When the stage-start line arrived; null when the log ended a stage it never started. */
  startMs: number | null
  /** When the stage-end line arrived; null for a stage still running when the run ended. */
  endMs: number | null
  /** `endMs - startMs` on our monotonic clock (includes pipe latency, ~ms). */
  receivedDurationMs: number | null
  /** The stage-end line's `{s:.1f}`. */
  logDurationS: number | null
  /** The summary block's value for the same stage. */
  summaryDurationS: number | null
  skippedReason: string | null
  /** Per-stage counts and other `[key: value]` extras. */
  extras: Record<string, StageExtraValue>
}

/** A stage whose log and summary durations disagree by more than the tolerance (or that one of them lacks). */
export interface StageMismatch {
  name: string
  logDurationS: number | null
  summaryDurationS: number | null
  diffS: number | null
}

/** Both values are printed to 0.1 s; upstream rounds each independently, so 0.2 s is the honest bound. */
export const STAGE_CROSSCHECK_TOLERANCE_S = 0.2

function newSpan(name: string, index: number | null, startMs: number | null): StageSpan {
  return {
    index,
    name,
    startMs,
    endMs: null,
    receivedDurationMs: null,
    logDurationS: null,
    summaryDurationS: null,
    skippedReason: null,
    extras: {},
  }
}

function crossCheck(spans: StageSpan[], summary: SummaryBlock): StageMismatch[] {
  const mismatches: StageMismatch[] = []
  for (const entry of summary.stages) {
    const span = spans.find((s) => s.name === entry.name)
    if (span) span.summaryDurationS = entry.durationS
    const logS = span?.logDurationS ?? null
    // A stage the summary lists as skipped has no duration there: nothing to compare.
    if (entry.durationS === null && span) continue
    const diffS =
      logS === null || entry.durationS === null ? null : Math.round(Math.abs(logS - entry.durationS) * 1e6) / 1e6
    if (diffS === null || diffS > STAGE_CROSSCHECK_TOLERANCE_S)
      mismatches.push({ name: entry.name, logDurationS: logS, summaryDurationS: entry.durationS, diffS })
  }
  return mismatches
}

/** Builds stage spans from a run's events and cross-checks them against the summary block when there is one. */
export function buildStageSpans(events: readonly TargetEvent[]): { spans: StageSpan[]; mismatches: StageMismatch[] } {
  const spans: StageSpan[] = []
  let summary: SummaryBlock | null = null
  for (const event of events) {
    if (event.type === 'stage-start') spans.push(newSpan(event.name, event.index, event.atMs))
    else if (event.type === 'summary') summary = event.summary
    else if (event.type === 'stage-end') {
      let span = spans.findLast((s) => s.name === event.name && s.endMs === null)
      if (!span) {
        span = newSpan(event.name, event.index, null)
        spans.push(span)
      }
      span.endMs = event.atMs
      span.receivedDurationMs = span.startMs === null ? null : event.atMs - span.startMs
      span.logDurationS = event.durationS
      span.skippedReason = event.skippedReason
      span.extras = event.extras
    }
  }
  return { spans, mismatches: summary ? crossCheck(spans, summary) : [] }
}
