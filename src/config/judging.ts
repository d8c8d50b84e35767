/**
 * What is too small to judge. A stage that takes under a second is no stage a GPU's behaviour shows in: its time is
 * process start, log timestamps (VirNucPro's main process logs at 1 s resolution) and scheduling jitter, so a speedup
 * or a throttling flag read from it judges the clock, not the pipeline (the demo's 1-ms stages got scaling FAILs and
 * throttling flags). Such a stage is still measured and shown; it gets no verdict and no flag, and the reports say so.
 */
export const MIN_JUDGED_STAGE_MS = 1_000

/** Why a stage of `durationMs` is not judged, or null when it is long enough. */
export function tooShortToJudge(durationMs: number): string | null {
  return durationMs < MIN_JUDGED_STAGE_MS
    ? `not judged: ${Math.round(durationMs)} ms, under ${MIN_JUDGED_STAGE_MS} ms (a stage that short times its process start and the log's clock, not its work)`
    : null
}
