import type { TargetEvent } from './events.ts'
import { parseFirstBatchLine } from './first-batch-line.ts'
import { type ReadProblems, readNumber } from './log-line.ts'

/**
 * The lines that bound a piece of a stage's work where the pipeline prints no per-batch line (VirNucPro at the sizes a
 * capacity test runs: test/fixtures/virnucpro/README.md): a v2 ESM-2 worker's loop (`Starting inference on N
 * sequences` ... `Async inference complete: N sequences, ...`) and a v1 file's extraction (`Extracting X features from
 * FILE` ... `X ready: ...` ... `Saved X features to FILE (N sequences)`), and how large its files are (`Splitting FILE
 * into files of N sequences`), and the v2 path's DNABERT-S files per worker (`Worker W: F files, N sequences`, then
 * `GPU W: K/F files (P%)` as each ends). Each is read from the message after the log prefix; `worker` is the prefix's rank (null
 * for the main process).
 */

const INFERENCE_START = /^Starting inference on ([\d,]+) sequences\b/
const INFERENCE_DONE = /\bAsync inference complete:(?: ([\d,]+) sequences\b)?/
const SEQ_RATE = /([\d,]+(?:\.\d+)?) seq\/s/
const TOKEN_RATE = /([\d,]+(?:\.\d+)?) tokens\/s/
const FILE_START = /^Extracting (\S+) features from (.+)$/
const MODEL_READY = /^(\S+) ready: /
const FILE_DONE = /^Saved (\S+) features to (.+) \(([\d,]+) sequences\)$/
const FILE_SPLIT = /^Splitting .+ into files of ([\d,]+) sequences$/
const FILES_ASSIGNED = /^\s*Worker (\d+): (\d+) files?, ([\d,]+) sequences$/
const FILES_DONE = /^GPU (\d+): (\d+)\/(\d+) files \(/

/** A rate the line prints, or null: 0 (nothing measured, see InferenceCompleteEvent) and no rate at all alike. */
function rateOf(pattern: RegExp, message: string, what: string, p: ReadProblems): number | null {
  const m = pattern.exec(message)
  const value = m ? readNumber(m[1]!, what, p) : null
  return value === 0 ? null : value
}

function inferenceDone(m: RegExpExecArray, message: string, worker: number | null, atMs: number, p: ReadProblems) {
  const event: TargetEvent = {
    type: 'inference-complete',
    sequences: m[1] === undefined ? null : readNumber(m[1], 'inference sequences', p),
    sequencesPerS: rateOf(SEQ_RATE, message, 'seq/s', p),
    tokensPerS: rateOf(TOKEN_RATE, message, 'tokens/s', p),
    worker,
    atMs,
  }
  return event
}

/** The work line in `message`, or null when it is none (a count no double holds: no event, a problem in `p`). */
export function parseWorkLine(
  message: string,
  worker: number | null,
  atMs: number,
  p: ReadProblems,
): TargetEvent | null {
  const before = p.length
  const done = INFERENCE_DONE.exec(message)
  if (done) return inferenceDone(done, message, worker, atMs, p)
  const first = parseFirstBatchLine(message, worker, atMs, p)
  if (first || p.length > before) return first
  const start = INFERENCE_START.exec(message)
  if (start) {
    const sequences = readNumber(start[1]!, 'inference sequences', p)
    return sequences === null ? null : { type: 'inference-start', sequences, worker, atMs }
  }
  const file = FILE_START.exec(message)
  if (file) return { type: 'file-start', label: file[1]!, file: file[2]!, worker, atMs }
  const ready = MODEL_READY.exec(message)
  if (ready) return { type: 'model-ready', label: ready[1]!, worker, atMs }
  const split = FILE_SPLIT.exec(message)
  if (split) {
    const sequencesPerFile = readNumber(split[1]!, 'sequences per file', p)
    return sequencesPerFile === null || !(sequencesPerFile > 0)
      ? null
      : { type: 'file-split', sequencesPerFile, worker, atMs }
  }
  const assigned = FILES_ASSIGNED.exec(message)
  if (assigned) {
    const sequences = readNumber(assigned[3]!, 'assigned sequences', p)
    return sequences === null
      ? null
      : { type: 'files-assigned', worker: Number(assigned[1]), files: Number(assigned[2]), sequences, atMs }
  }
  const filesDone = FILES_DONE.exec(message)
  if (filesDone) {
    const [done, total] = [Number(filesDone[2]), Number(filesDone[3])]
    return done > total || total === 0 ? null : { type: 'files-done', worker: Number(filesDone[1]), done, total, atMs }
  }
  const saved = FILE_DONE.exec(message)
  if (!saved) return null
  const sequences = readNumber(saved[3]!, 'saved sequences', p)
  return sequences === null || p.length > before
    ? null
    : { type: 'file-done', label: saved[1]!, file: saved[2]!, sequences, worker, atMs }
}
