/**
 * Collects each stage's progress during one run into the compact series a record keeps (StageProgress), thinned to
 * PROGRESS_MAX_POINTS, from every kind of line that says how far a stage got:
 * - batch lines (ESM-2's `Batch` lines, any `<label> progress: done/total` line), per worker, as they come, with the
 *   time of the worker's `First batch ready` line (where its GPU work starts: src/engine/work-spans.ts);
 * - worker spans (`Starting inference on N sequences` ... `Async inference complete: N sequences`), per worker, and
 *   file lines (`Extracting X features from FILE`, `X ready:`, `Saved X features to FILE (N sequences)`), per stage:
 *   each a piece of work with a start and an end, kept as a pair of points, with the time the files spent building a
 *   model before their work and the files' size (`Splitting FILE into files of N sequences`);
 * - file counts (`GPU W: K/F files`), per worker: one point per file a worker finished, its items counted from the
 *   worker's assignment (`Worker W: F files, N sequences`) and the split's file size;
 * - tqdm bars, per stage and bar: one point per count the bar shows (its redraws of one count are one point).
 */

import type { TargetEvent } from '../pipeline/events.ts'
import { PROGRESS_MAX_POINTS, type ProgressSource, type StageProgress } from '../results/schema/index.ts'

export interface ProgressCollector {
  /** Feeds one event seen while `stage` was running (null: between stages). */
  push(event: TargetEvent, stage: string | null): void
  /** The series collected, one per stage, source and worker (or bar), in the order they started. */
  series(): StageProgress[]
}

/** Evenly spaced indices of `count` points, at most `max` of them, the first and the last always among them. */
export function thinnedIndices(count: number, max: number): number[] {
  if (count <= max) return Array.from({ length: count }, (_, i) => i)
  const out: number[] = []
  for (let k = 0; k < max; k++) out.push(Math.round((k * (count - 1)) / (max - 1)))
  return out
}

/** Series kept in pairs (a piece's start and end): thinned by whole pieces, so no kept point loses its partner. */
export const isPaired = (p: Pick<StageProgress, 'source'>) => p.source === 'worker-span' || p.source === 'file-lines'

function thin(p: StageProgress, max: number): StageProgress {
  if (p.atMs.length <= max) return p
  const keep = isPaired(p)
    ? thinnedIndices(p.atMs.length / 2, Math.max(2, Math.floor(max / 2))).flatMap((k) => [2 * k, 2 * k + 1])
    : thinnedIndices(p.atMs.length, max)
  return { ...p, atMs: keep.map((i) => p.atMs[i]!), done: keep.map((i) => p.done[i]!) }
}

/**
 * Items a worker has done after `k` of its `files` files (`items` in all), where the split made files of `perFile`:
 * its files come largest first (VirNucPro sorts them so before it hands them out), so all are full but the last,
 * which holds the split's remainder. Where the counts do not fit that (no split line, or another split), the files
 * are taken as equal.
 */
export function itemsAfterFiles(k: number, files: number, items: number, perFile: number | null): number {
  if (k >= files) return items
  const fits = perFile !== null && (files - 1) * perFile < items && items <= files * perFile
  return fits ? k * perFile : (k * items) / files
}

/** A piece begun and not yet ended: when (the `ready` after a model build moves it) and what it was. */
interface OpenPiece {
  label: string
  atMs: number
  sequences: number | null
  /** ms from the piece's first line to its `ready` (a model built inside it); 0 without one. */
  setupMs: number
}

/** A collector; `maxPoints` per series (default PROGRESS_MAX_POINTS). */
export function createProgressCollector(maxPoints = PROGRESS_MAX_POINTS): ProgressCollector {
  const byKey = new Map<string, StageProgress>()
  const open = new Map<string, OpenPiece>()
  // tqdm: the series key of each bar now drawn (a bar whose count goes back is a new bar of the same label).
  const bars = new Map<string, { key: string; restarts: number }>()
  // The last `into files of N sequences` seen: the size of the files the next GPU stages work through.
  let itemsPerFile: number | null = null
  // Per worker, the files and items the main process handed it last (`Worker W: F files, N sequences`).
  const assigned = new Map<number, { files: number; sequences: number }>()

  const seriesOf = (key: string, stage: string, source: ProgressSource | undefined, worker: number | null) => {
    let p = byKey.get(key)
    if (!p) {
      p = { stage, ...(source && { source }), worker, total: 0, lines: 0, atMs: [], done: [] }
      byKey.set(key, p)
    }
    return p
  }

  const endPiece = (key: string, p: StageProgress, atMs: number, sequences: number) => {
    const piece = open.get(key)
    open.delete(key)
    if (!piece || !(Number.isFinite(sequences) && sequences >= 0)) return
    const before = p.done.at(-1) ?? 0
    p.atMs.push(piece.atMs, atMs)
    p.done.push(before, before + sequences)
    p.total = before + sequences
    p.lines += 2
    if (p.source !== 'file-lines') return
    if (piece.setupMs > 0) p.setupMs = (p.setupMs ?? 0) + piece.setupMs
    if (itemsPerFile !== null) p.itemsPerFile = itemsPerFile
  }

  const pieceEvent = (event: TargetEvent, stage: string) => {
    const w = 'worker' in event ? (event.worker ?? null) : null
    if (event.type === 'inference-start' || event.type === 'inference-complete') {
      const key = `worker-span\u0000${stage}\u0000${w ?? ''}`
      if (event.type === 'inference-start')
        open.set(key, { label: 'inference', atMs: event.atMs, sequences: event.sequences, setupMs: 0 })
      else endPiece(key, seriesOf(key, stage, 'worker-span', w), event.atMs, event.sequences ?? NaN)
      return
    }
    const key = `file-lines\u0000${stage}\u0000${w ?? ''}`
    const piece = open.get(key)
    // A second `Extracting` before a `Saved` replaces the first: only a file that is saved is a piece of work.
    if (event.type === 'file-start')
      open.set(key, { label: event.label, atMs: event.atMs, sequences: null, setupMs: 0 })
    else if (event.type === 'model-ready' && piece?.label === event.label) {
      piece.setupMs += event.atMs - piece.atMs
      piece.atMs = event.atMs
    } else if (event.type === 'file-done' && piece?.label === event.label)
      endPiece(key, seriesOf(key, stage, 'file-lines', w), event.atMs, event.sequences)
  }

  const tqdmEvent = (event: Extract<TargetEvent, { type: 'tqdm' }>, stage: string) => {
    const barKey = `${stage}\u0000${event.label ?? ''}`
    let bar = bars.get(barKey) ?? { key: `tqdm\u0000${barKey}\u00000`, restarts: 0 }
    const last = byKey.get(bar.key)
    if (last && event.done < last.done.at(-1)!)
      bar = { key: `tqdm\u0000${barKey}\u0000${bar.restarts + 1}`, restarts: bar.restarts + 1 }
    bars.set(barKey, bar)
    const p = seriesOf(bar.key, stage, 'tqdm', null)
    p.lines++
    p.total = Math.max(p.total, event.total)
    if (p.done.at(-1) === event.done) return
    p.atMs.push(event.atMs)
    p.done.push(event.done)
  }

  const filesDone = (event: Extract<TargetEvent, { type: 'files-done' }>, stage: string) => {
    const a = assigned.get(event.worker)
    if (!a || a.files !== event.total) return
    const p = seriesOf(`file-count\u0000${stage}\u0000${event.worker}`, stage, 'file-count', event.worker)
    p.lines++
    p.total = a.sequences
    const done = itemsAfterFiles(event.done, a.files, a.sequences, itemsPerFile)
    if (done <= (p.done.at(-1) ?? 0)) return
    p.atMs.push(event.atMs)
    p.done.push(done)
  }

  return {
    push(event, stage) {
      // The split comes in a stage of its own (File Splitting), before the stages whose files it sizes.
      if (event.type === 'file-split') {
        itemsPerFile = event.sequencesPerFile
        return
      }
      if (event.type === 'files-assigned') {
        assigned.set(event.worker, { files: event.files, sequences: event.sequences })
        return
      }
      if (stage === null) return
      if (event.type === 'files-done') return filesDone(event, stage)
      if (event.type === 'tqdm') return tqdmEvent(event, stage)
      if (event.type === 'first-batch') {
        // Kept on the worker's batch series, whose first `Batch` line comes one batch later.
        const p = seriesOf(`${stage}\u0000${event.worker ?? ''}`, stage, undefined, event.worker)
        p.firstBatchMs ??= event.atMs
        return
      }
      if (event.type !== 'batch' && event.type !== 'progress') return pieceEvent(event, stage)
      if (!(Number.isFinite(event.done) && Number.isFinite(event.total))) return
      const p = seriesOf(`${stage}\u0000${event.worker ?? ''}`, stage, undefined, event.worker)
      p.lines++
      p.total = Math.max(p.total, event.total)
      p.atMs.push(event.atMs)
      p.done.push(event.done)
    },
    series: () => [...byKey.values()].filter((p) => p.atMs.length > 0).map((p) => thin(p, maxPoints)),
  }
}
