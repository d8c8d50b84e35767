import type { FirstBatchEvent } from './events.ts'
import { type ReadProblems, readNumber } from './log-line.ts'

/**
 * `First batch ready after X s buffering (N sequences, T tokens). Processing starting...`: a v2 ESM-2 worker's
 * DataLoader has read its share and the collator has buffered enough (2,000 sequences) to pack its first batch
 * (VirNucPro's async_inference.py). The worker's GPU work starts here: everything before it in the worker's span
 * (`Starting inference on N sequences`) is its start (the loader reading, the buffer filling), which PERF-02's steady
 * state leaves out (src/monitor/summary/work-onset.ts). Below the buffer a worker goes through the flush path and logs
 * no such line.
 */
const FIRST_BATCH = /^First batch ready after (\d+(?:\.\d+)?)s buffering \(([\d,]+) sequences, ([\d,]+) tokens\)/

/** The first-batch line in `message`, or null when it is none (a number no double holds: null, a problem in `p`). */
export function parseFirstBatchLine(
  message: string,
  worker: number | null,
  atMs: number,
  p: ReadProblems,
): FirstBatchEvent | null {
  const m = FIRST_BATCH.exec(message)
  if (!m) return null
  const bufferingS = readNumber(m[1]!, 'first-batch buffering seconds', p)
  const sequences = readNumber(m[2]!, 'first-batch sequences', p)
  const tokens = readNumber(m[3]!, 'first-batch tokens', p)
  if (bufferingS === null || sequences === null || tokens === null) return null
  return { type: 'first-batch', bufferingS, sequences, tokens, worker, atMs }
}
