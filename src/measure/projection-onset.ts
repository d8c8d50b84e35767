/**
 * Where each stage's GPU work starts, from a monitor series: the first sample tagged with the stage whose
 * utilization is at least ONSET_UTIL_PCT, measured from the stage's start. Below half busy the GPU is still being
 * set up (context, model copy, first kernels' autotuning) or fed in trickles; at or above it the stage's batches run.
 * The true onset lies between the previous sample (or the stage start) and this one: `resolutionMs` is that gap.
 * Structural input (the monitor's `stage` and `sample` records fit it), so this stays free of the monitor's types.
 */

/** Utilization (%) at which a stage's GPU work counts as started. */
export const ONSET_UTIL_PCT = 50

/** The monitor records this reads; others are ignored. */
export type OnsetRecord =
  | { kind: 'stage'; tMs: number; stage: string | null }
  | { kind: 'sample'; tMs: number; gpu: number; stage: string | null; utilPct: number | null }
  | { kind: string; tMs?: number }

export interface GpuOnset {
  /** ms from the stage's start to the first busy sample. */
  onsetMs: number
  /** ms from the sample before it (or the stage start, if later) to it. */
  resolutionMs: number
}

const isStage = (r: OnsetRecord): r is Extract<OnsetRecord, { kind: 'stage' }> => r.kind === 'stage'
const isSample = (r: OnsetRecord): r is Extract<OnsetRecord, { kind: 'sample' }> => r.kind === 'sample'

/**
 * Onset per stage name, over the GPUs in `gpus` (null: all); the earliest GPU decides. Stages whose GPU never
 * reaches the threshold are absent.
 */
export function gpuOnsets(
  records: readonly OnsetRecord[],
  gpus: readonly number[] | null,
  thresholdPct = ONSET_UTIL_PCT,
): Map<string, GpuOnset> {
  const starts = new Map<string, number>()
  const lastSampleMs = new Map<number, number>()
  const onsets = new Map<string, GpuOnset>()
  for (const r of records) {
    if (isStage(r)) {
      if (r.stage !== null && !starts.has(r.stage)) starts.set(r.stage, r.tMs)
      continue
    }
    if (!isSample(r) || (gpus !== null && !gpus.includes(r.gpu))) continue
    const previousMs = lastSampleMs.get(r.gpu)
    lastSampleMs.set(r.gpu, r.tMs)
    const startMs = r.stage === null ? undefined : starts.get(r.stage)
    if (r.stage === null || startMs === undefined || onsets.has(r.stage)) continue
    if ((r.utilPct ?? 0) < thresholdPct) continue
    const fromMs = Math.max(startMs, previousMs ?? startMs)
    onsets.set(r.stage, { onsetMs: r.tMs - startMs, resolutionMs: r.tMs - fromMs })
  }
  return onsets
}
