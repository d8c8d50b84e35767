/**
 * Where a GPU's work in a stage starts, and how busy the GPU is from there to the work's end: PERF-02's steady state
 * without the worker's start. A v2 ESM-2 worker moves its model to the GPU (a few busy samples), then its DataLoader
 * reads its whole share and the collator buffers 2,000 sequences before the first batch: the GPU sits idle for 15-19 s
 * at 3,750 records, longer as the input grows. Counted from the first busy sample, that wait dilutes the steady state
 * (ESM-2 on 2 x H100 read 13.5% at 6 M where NVML showed each GPU 60-75% busy once its batches ran), so the steady
 * part starts at the work's onset:
 * - from the log where it says (`First batch ready`, src/engine/work-spans.ts gives it per GPU), else
 * - from the samples alone (nvmlWorkOnsetMs below).
 */
import type { SampleRecord } from '../records.ts'
import type { StageWindow } from '../stage-timeline.ts'
import { IDLE_UTIL_PCT } from './idle-throttle.ts'

/** One GPU's work in one stage as the pipeline's log bounds it, in ms from the stage's start (its first window's). */
export interface WorkSpan {
  stage: string
  gpu: number
  /** The worker's first batch. */
  startMs: number
  /** The worker's end (`Async inference complete`); null: the stage's end. */
  endMs: number | null
}

export type WorkOnsetSource = 'first-batch' | 'nvml-onset'

export interface WorkFigures {
  /** ms from the stage's start to the GPU's work onset; null without a busy sample (and no span). */
  workOnsetMs: number | null
  workOnsetSource: WorkOnsetSource | null
  /**
   * Mean utilization of the samples from the onset to the work's end: the worker's end where the log says, else the
   * GPU's last busy sample; null: no reading there.
   */
  workUtilPct: number | null
}

/** Busy samples further apart than this are two stretches of work: an idle gap this long is a wait, not a pause. */
export const WORK_GAP_MS = 2_000
/** A busy stretch is the GPU's work, not a blip before it, when it lasts at least this share of the longest one. */
export const WORK_MIN_SHARE = 0.25

interface Stretch {
  startMs: number
  endMs: number
}

/** Busy stretches of samples sorted by time: busy samples (>= IDLE_UTIL_PCT) no more than WORK_GAP_MS apart. */
function busyStretches(samples: readonly SampleRecord[]): Stretch[] {
  const out: Stretch[] = []
  for (const s of samples) {
    if (s.utilPct === null || s.utilPct < IDLE_UTIL_PCT) continue
    const last = out.at(-1)
    if (last && s.tMs - last.endMs <= WORK_GAP_MS) last.endMs = s.tMs
    else out.push({ startMs: s.tMs, endMs: s.tMs })
  }
  return out
}

/**
 * The NVML work onset, the first sample from which the GPU stays busy (tMs; null without a busy sample): the start of
 * the first busy stretch that lasts at least WORK_MIN_SHARE of the longest. Why not the first busy sample: a model's
 * move to the GPU and its conversion are a few busy samples long before the first batch, with the loader's whole read
 * after them. Why a share of the longest stretch and no fixed length: the rule reads the same at 1,000 sequences and
 * at 6 M (a blip stays seconds long while the work grows), and a stage that builds its model once per file (v1's
 * ESM-2: an idle build between files) keeps its later files in its steady part, its first file being as long as they.
 * Why the gap: a batch waiting on its data idles the GPU for a sample or two, which is part of the work.
 */
export function nvmlWorkOnsetMs(samples: readonly SampleRecord[]): number | null {
  return nvmlWork(samples)?.startMs ?? null
}

/** The GPU's work as the samples bound it: its onset (nvmlWorkOnsetMs) to its last busy sample; null: none busy. */
function nvmlWork(samples: readonly SampleRecord[]): Stretch | null {
  const stretches = busyStretches(samples)
  const longestMs = Math.max(0, ...stretches.map((s) => s.endMs - s.startMs))
  const first = stretches.find((s) => s.endMs - s.startMs >= WORK_MIN_SHARE * longestMs)
  return first ? { startMs: first.startMs, endMs: stretches.at(-1)!.endMs } : null
}

const NONE: WorkFigures = { workOnsetMs: null, workOnsetSource: null, workUtilPct: null }

/** Mean utilization of the samples in [fromMs, toMs) (null: no reading there). */
function meanUtil(samples: readonly SampleRecord[], fromMs: number, toMs: number): number | null {
  let sum = 0
  let count = 0
  for (const s of samples) {
    if (s.tMs < fromMs || s.tMs >= toMs || s.utilPct === null) continue
    sum += s.utilPct
    count++
  }
  return count === 0 ? null : sum / count
}

/**
 * The work figures of one GPU's samples (sorted by time, all inside `windows`, the stage's): from `span` where the
 * log bounds the work, else from the NVML work onset to the GPU's last busy sample.
 */
export function workFigures(
  samples: readonly SampleRecord[],
  windows: readonly StageWindow[],
  span: WorkSpan | null,
): WorkFigures {
  const first = windows[0]
  if (!first) return NONE
  const stageEndMs = Math.max(...windows.map((w) => w.endMs))
  // The work ends at the worker's end where the log says, else at the GPU's last busy sample: the stage's drain after
  // it (the shards joined on the host) is no more the GPU's work than the loader's read before the first batch.
  const work = nvmlWork(samples)
  const endMs =
    span?.endMs != null ? Math.min(stageEndMs, first.startMs + span.endMs) : work ? work.endMs + 1 : stageEndMs
  const fromLog = span ? meanUtil(samples, first.startMs + span.startMs, endMs) : null
  // A span with no sample inside it (a worker shorter than one interval) leaves the onset to the samples.
  if (span && fromLog !== null)
    return { workOnsetMs: span.startMs, workOnsetSource: 'first-batch', workUtilPct: fromLog }
  if (work === null) return NONE
  const util = meanUtil(samples, work.startMs, work.endMs + 1)
  return { workOnsetMs: work.startMs - first.startMs, workOnsetSource: 'nvml-onset', workUtilPct: util }
}
