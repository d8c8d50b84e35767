import type { StageSpan } from '../../src/pipeline/stage-spans.ts'

/** A completed stage span of `durationMs` from `startMs`, as the log parser reads one (log and summary durations agree). */
export function stageSpan(index: number, name: string, startMs: number, durationMs: number): StageSpan {
  return {
    index,
    name,
    startMs,
    endMs: startMs + durationMs,
    receivedDurationMs: durationMs,
    logDurationS: durationMs / 1000,
    summaryDurationS: durationMs / 1000,
    skippedReason: null,
    extras: {},
  }
}
