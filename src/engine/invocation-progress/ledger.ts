/**
 * The progress ledger: one JSON line per event of one invocation of the gpu project (a file started or ended, a
 * measurement planned, a run started or ended), in `<work dir>/progress/<started>-<pid>.jsonl`. The workers append to
 * it as they measure, one file at a time; the run-lines reporter, in vitest's main process, reads it as it grows and
 * says where the invocation stands; a later invocation under the same key and plan (its first line, plan-key.ts)
 * reads it to forecast its own files (earlier-progress.ts). A file of its own per invocation, so that a writer that lost the run (suspended past its lock's
 * lease) never adds lines to its successor's ledger.
 */
import { appendFileSync, closeSync, fstatSync, openSync, readSync } from 'node:fs'
import { join } from 'node:path'
import { z } from 'zod'

export const PROGRESS_DIR = 'progress'

const Phase = z.enum(['warm-up', 'run'])
const base = { at: z.number(), file: z.string() }

const LedgerLineSchema = z.discriminatedUnion('type', [
  /** The first line: the invocation's plan (plan-key.ts), what a later invocation's forecast must share. */
  z.object({ type: z.literal('invocation'), at: z.number(), plan: z.record(z.string(), z.unknown()) }),
  z.object({ type: z.literal('file-start'), ...base }),
  z.object({ type: z.literal('file-end'), ...base }),
  z.object({
    type: z.literal('plan'),
    ...base,
    measurement: z.string(),
    arms: z.array(
      z.object({
        label: z.string(),
        warmups: z.number().int().nonnegative(),
        runs: z.number().int().nonnegative(),
        minRuns: z.number().int().nonnegative(),
      }),
    ),
  }),
  z.object({
    type: z.literal('start'),
    ...base,
    measurement: z.string(),
    arm: z.string(),
    phase: Phase,
    n: z.number().int(),
  }),
  z.object({
    type: z.literal('run'),
    ...base,
    measurement: z.string(),
    arm: z.string(),
    phase: Phase,
    n: z.number().int(),
    wallMs: z.number().nonnegative(),
    exitClass: z.string(),
    reused: z.enum(['earlier', 'shared']).nullable(),
  }),
  z.object({ type: z.literal('end'), ...base, measurement: z.string() }),
])

/**
 * One line of the ledger: an event, when it happened (ms since the epoch) and the test file it happened in; or the
 * invocation's plan, its first line.
 */
export type LedgerLine = z.infer<typeof LedgerLineSchema>

/** `<work dir>/progress/<started, ISO without separators>-<pid>.jsonl`: names sort by start. */
export function ledgerPath(workDir: string, startedAt: Date, pid = process.pid): string {
  return join(workDir, PROGRESS_DIR, `${startedAt.toISOString().replace(/[^0-9A-Za-z]/g, '')}-${pid}.jsonl`)
}

/** Appends one line (one write, so a reader never sees half of it unless the disk is full). */
export function appendLedgerLine(path: string, line: LedgerLine): void {
  appendFileSync(path, `${JSON.stringify(line)}\n`)
}

/** The lines of a ledger's text that parse; a line cut off or written by other code is left out, never thrown. */
export function parseLedger(text: string): LedgerLine[] {
  const lines: LedgerLine[] = []
  for (const raw of text.split('\n')) {
    if (raw.trim() === '') continue
    let json: unknown
    try {
      json = JSON.parse(raw)
    } catch {
      continue
    }
    const parsed = LedgerLineSchema.safeParse(json)
    if (parsed.success) lines.push(parsed.data)
  }
  return lines
}

/**
 * Reads a ledger as it grows: each call gives the whole lines appended since the last one (a line still being written
 * waits for the next call). Synchronous, so a reporter hook can print what it holds before vitest's next line.
 */
export function ledgerTail(path: string): () => LedgerLine[] {
  let offset = 0
  // Bytes after the last newline read: kept as bytes, since a read may end inside a character of a label.
  let pending = Buffer.alloc(0)
  return () => {
    let fd: number
    try {
      fd = openSync(path, 'r')
    } catch {
      return []
    }
    try {
      const size = fstatSync(fd).size
      if (size <= offset) return []
      const buffer = Buffer.alloc(size - offset)
      offset += readSync(fd, buffer, 0, buffer.length, offset)
      const bytes = Buffer.concat([pending, buffer])
      const end = bytes.lastIndexOf(0x0a) + 1
      pending = bytes.subarray(end)
      return parseLedger(bytes.toString('utf8', 0, end))
    } finally {
      closeSync(fd)
    }
  }
}
