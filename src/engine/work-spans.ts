/**
 * Where each GPU's work in a stage starts and ends as the pipeline's log says, for the monitor's summary to read its
 * steady state from (src/monitor/summary/work-onset.ts): a worker's first batch to its end, in ms from the stage's
 * start. A v2 ESM-2 worker spends 15-19 s of its span (`Starting inference on N sequences` ... `Async inference
 * complete`) before its first batch at 3,750 records (its DataLoader reads its whole share, then 2,000 sequences are
 * buffered), and that wait grows with the input: it is the worker's start, not its steady state.
 */

import type { WorkSpan } from '../monitor/summary/work-onset.ts'
import type { RunRecord } from '../pipeline/run-record.ts'
import type { StageProgress } from '../results/schema/index.ts'

/**
 * The physical GPU worker `rank` ran on. VirNucPro's v2 workers set CUDA_VISIBLE_DEVICES=rank whatever `--gpus` said
 * (docs/UPSTREAM.md), so rank r ran on GPU r; where the GPUs the run used (per-process memory) are known and do not
 * hold r (another numbering), on the r-th of them. Null when there is none such.
 */
export function gpuOfWorker(rank: number, run: Pick<RunRecord, 'gpusUsed'>): number | null {
  const used = run.gpusUsed ? [...run.gpusUsed].sort((a, b) => a - b) : null
  if (!used || used.includes(rank)) return rank
  return used[rank] ?? null
}

/** The end of a worker's loop in `stage` (its worker span's last point), or null without one. */
const workerEndMs = (progress: readonly StageProgress[], stage: string, worker: number): number | null =>
  progress.find((p) => p.stage === stage && p.source === 'worker-span' && p.worker === worker)?.atMs.at(-1) ?? null

/**
 * The work spans of a run's workers: per worker with batch lines, from its `First batch ready` line (records written
 * before it was kept: its first `Batch` line, one batch later) to its `Async inference complete` (none: the stage's
 * end). A worker without batch lines (VirNucPro's flush path below 2,000 sequences logs none) gives no span, and the
 * summary finds its GPU's onset in the samples. Runner clock throughout: the stage's start is its span's.
 */
export function workSpansOf(
  progress: readonly StageProgress[],
  run: Pick<RunRecord, 'stages' | 'gpusUsed'>,
): WorkSpan[] {
  const spans: WorkSpan[] = []
  for (const p of progress) {
    if (p.source !== undefined || p.worker === null || p.atMs.length === 0) continue
    const stageStartMs = run.stages.find((s) => s.name === p.stage)?.startMs ?? null
    const gpu = gpuOfWorker(p.worker, run)
    if (stageStartMs === null || gpu === null) continue
    const startMs = (p.firstBatchMs ?? p.atMs[0]!) - stageStartMs
    const endMs = workerEndMs(progress, p.stage, p.worker)
    spans.push({ stage: p.stage, gpu, startMs, endMs: endMs === null ? null : endMs - stageStartMs })
  }
  return spans
}
