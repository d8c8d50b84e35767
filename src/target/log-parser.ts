import type { StageExtraValue, TargetEvent } from './events.ts'
import { parseGroupedNumber, splitLogLine } from './log-line.ts'
import { createSummaryReader } from './summary-parser.ts'

/**
 * Turns a pipeline's log lines into typed events (docs/UPSTREAM.md, "Log lines"). One parser per run: it remembers
 * which stage index each name started under and whether a summary block is open. Unrelated lines yield no events;
 * the parser never throws on any input.
 */
export interface LogParser {
  /** Parses one line (without its newline) received `atMs` after the run started. */
  push(line: string, atMs: number): TargetEvent[]
}

const STAGE_START = /^=== Stage (\d+): (.+) ===$/
const STAGE_END = /^ {2}(.+?) completed in (\d+(?:\.\d+)?)s(?: \[(.+)\])?$/
const TRANSLATION =
  /^Translation complete: processed ([\d,]+) sequences in (\d+(?:\.\d+)?)s \(([\d,]+(?:\.\d+)?) seq\/s\)$/
const BATCH =
  /\bBatch (\d+): ([\d,]+)\/([\d,]+) \((\d+(?:\.\d+)?)%\) \| (\d+(?:\.\d+)?)% pack eff, ([\d,]+(?:\.\d+)?) tok\/s, ([\d,]+(?:\.\d+)?) seq\/s, ETA: (\S.*)$/
const PROGRESS = /^(\S[^:]*?) progress: ([\d,]+)\/([\d,]+) \(/
const INFERENCE_DONE = /\bAsync inference complete:/
const SEQ_RATE = /([\d,]+(?:\.\d+)?) seq\/s/
const TOKEN_RATE = /([\d,]+(?:\.\d+)?) tokens\/s/
const OOM = /CUDA out of memory|OutOfMemoryError/
const SKIPPED = /^skipped \((.*)\)$/
const EXTRA = /^([^:]+): (.+)$/

function num(text: string | undefined): number {
  return parseGroupedNumber(text ?? '') ?? Number.NaN
}

/** Parses `key: value, key: value, skipped (reason)`; null when a part fits neither form. */
export function parseStageExtras(
  list: string,
): { extras: Record<string, StageExtraValue>; skipped: string | null } | null {
  const extras: Record<string, StageExtraValue> = {}
  let skipped: string | null = null
  for (const part of list.split(', ')) {
    const skip = SKIPPED.exec(part)
    const kv = skip ? null : EXTRA.exec(part)
    if (skip) skipped = skip[1]!
    else if (kv) extras[kv[1]!] = parseGroupedNumber(kv[2]!) ?? kv[2]!
    else return null
  }
  return { extras, skipped }
}

function parseRateLine(message: string, worker: number | null, atMs: number): TargetEvent | null {
  const batch = BATCH.exec(message)
  if (batch) {
    return {
      type: 'batch',
      batch: Number(batch[1]),
      done: num(batch[2]),
      total: num(batch[3]),
      percent: Number(batch[4]),
      packEfficiency: Number(batch[5]) / 100,
      tokensPerS: num(batch[6]),
      sequencesPerS: num(batch[7]),
      eta: batch[8]!,
      worker,
      atMs,
    }
  }
  const progress = PROGRESS.exec(message)
  if (progress)
    return { type: 'progress', label: progress[1]!, done: num(progress[2]), total: num(progress[3]), worker, atMs }
  const tr = TRANSLATION.exec(message)
  if (tr)
    return {
      type: 'translation-rate',
      sequences: num(tr[1]),
      durationS: Number(tr[2]),
      sequencesPerS: num(tr[3]),
      atMs,
    }
  if (INFERENCE_DONE.test(message)) {
    const seq = SEQ_RATE.exec(message)
    const tok = TOKEN_RATE.exec(message)
    return {
      type: 'inference-complete',
      sequencesPerS: seq ? num(seq[1]) : null,
      tokensPerS: tok ? num(tok[1]) : null,
      worker,
      atMs,
    }
  }
  return null
}

/** Creates a parser for one run's combined stdout/stderr. */
export function createLogParser(): LogParser {
  const startedIndex = new Map<string, number>()
  const summary = createSummaryReader()

  const parseStage = (message: string, atMs: number): TargetEvent | null => {
    const start = STAGE_START.exec(message)
    if (start) {
      const index = Number(start[1])
      startedIndex.set(start[2]!, index)
      return { type: 'stage-start', index, name: start[2]!, atMs }
    }
    const end = STAGE_END.exec(message)
    if (!end) return null
    const parsed = end[3] === undefined ? { extras: {}, skipped: null } : parseStageExtras(end[3])
    if (!parsed) return null
    const name = end[1]!
    return {
      type: 'stage-end',
      name,
      index: startedIndex.get(name) ?? null,
      durationS: Number(end[2]),
      skippedReason: parsed.skipped,
      extras: parsed.extras,
      atMs,
    }
  }

  const push = (raw: string, atMs: number): TargetEvent[] => {
    const line = splitLogLine(raw)
    const events: TargetEvent[] = []
    if (line.worker !== null)
      events.push({ type: 'worker', rank: line.worker, level: line.level ?? '', message: line.message, atMs })
    if (OOM.test(line.message)) events.push({ type: 'oom', line: raw, worker: line.worker, atMs })
    if (line.worker === null && summary.push(line.message)) {
      const block = summary.take()
      if (block) events.push({ type: 'summary', summary: block, atMs })
      return events
    }
    const event =
      (line.worker === null ? parseStage(line.message, atMs) : null) ?? parseRateLine(line.message, line.worker, atMs)
    if (event) events.push(event)
    return events
  }
  return { push }
}
