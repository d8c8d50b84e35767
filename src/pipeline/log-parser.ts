import { architectureOf } from './architecture-line.ts'
import type { StageExtraValue, TargetEvent } from './events.ts'
import { boundLine } from './kept-line.ts'
import { cleanLine, type ReadProblems, readGroupedValue, readNumber, splitLogLine } from './log-line.ts'
import { createSummaryReader } from './summary-parser.ts'
import { parseTqdmRedraw } from './tqdm-line.ts'
import { parseWorkLine } from './work-lines.ts'

/**
 * Turns a pipeline's log lines into typed events (docs/UPSTREAM.md, "Log lines"). One parser per run: it remembers
 * which stage index each name started under and whether a summary block is open. Unrelated lines yield no events;
 * the parser never throws on any input. Control characters never reach an event (log-line.ts cleanLine), and a number
 * no double holds is never an event's value: its line yields a `read-error` naming it (events.ts ReadErrorEvent).
 */
export interface LogParser {
  /**
   * Parses one line (without its end) received `atMs` after the run started; `startedAtMs` (default `atMs`): when its
   * first byte came, which a tqdm redraw is timed by (the next write, which ends it, can come much later).
   */
  push(line: string, atMs: number, startedAtMs?: number): TargetEvent[]
}

const STAGE_START = /^=== Stage (\d+): (.+) ===$/
const STAGE_END = /^ {2}(.+?) completed in (\d+(?:\.\d+)?)s(?: \[(.+)\])?$/
const TRANSLATION =
  /^Translation complete: processed ([\d,]+) sequences in (\d+(?:\.\d+)?)s \(([\d,]+(?:\.\d+)?) seq\/s\)$/
const BATCH =
  /\bBatch (\d+): ([\d,]+)\/([\d,]+) \((\d+(?:\.\d+)?)%\) \| (\d+(?:\.\d+)?)% pack eff, ([\d,]+(?:\.\d+)?) tok\/s, ([\d,]+(?:\.\d+)?) seq\/s, ETA: (\S.*)$/
const PROGRESS = /^(\S[^:]*?) progress: ([\d,]+)\/([\d,]+) \(/
const OOM = /CUDA out of memory|OutOfMemoryError/
const SKIPPED = /^skipped \((.*)\)$/
const EXTRA = /^([^:]+): (.+)$/

/**
 * Parses `key: value, key: value, skipped (reason)`; null when a part fits neither form. A numeric value no double
 * holds is left out, with a problem naming its key.
 */
export function parseStageExtras(
  list: string,
  problems: ReadProblems = [],
): { extras: Record<string, StageExtraValue>; skipped: string | null } | null {
  const extras: Record<string, StageExtraValue> = {}
  let skipped: string | null = null
  for (const part of list.split(', ')) {
    const skip = SKIPPED.exec(part)
    const kv = skip ? null : EXTRA.exec(part)
    if (skip) skipped = skip[1]!
    else if (kv) {
      const value = readGroupedValue(kv[2]!, kv[1]!, problems)
      if (value !== null) extras[kv[1]!] = value
    } else return null
  }
  return { extras, skipped }
}

/** A reader of a matched line's groups as numbers: NaN, and a problem in `p`, for one no double holds. */
function groupNumbers(m: RegExpExecArray, what: string, p: ReadProblems): (group: number) => number {
  return (group) => readNumber(m[group]!, what, p) ?? Number.NaN
}

function parseBatch(m: RegExpExecArray, worker: number | null, atMs: number, p: ReadProblems): TargetEvent | null {
  const before = p.length
  const n = groupNumbers(m, 'a batch line number', p)
  const event: TargetEvent = {
    type: 'batch',
    batch: n(1),
    done: n(2),
    total: n(3),
    percent: n(4),
    packEfficiency: n(5) / 100,
    tokensPerS: n(6),
    sequencesPerS: n(7),
    eta: m[8]!,
    worker,
    atMs,
  }
  // A line with a number no double holds is no batch: its read-error names it.
  return p.length > before ? null : event
}

function parseRateLine(message: string, worker: number | null, atMs: number, p: ReadProblems): TargetEvent | null {
  const batch = BATCH.exec(message)
  if (batch) return parseBatch(batch, worker, atMs, p)
  const progress = PROGRESS.exec(message)
  if (progress) {
    const before = p.length
    const n = groupNumbers(progress, 'a progress count', p)
    const event: TargetEvent = { type: 'progress', label: progress[1]!, done: n(2), total: n(3), worker, atMs }
    return p.length > before ? null : event
  }
  const tr = TRANSLATION.exec(message)
  if (tr) {
    const before = p.length
    const n = groupNumbers(tr, 'a translation line number', p)
    const event: TargetEvent = { type: 'translation-rate', sequences: n(1), durationS: n(2), sequencesPerS: n(3), atMs }
    return p.length > before ? null : event
  }
  return parseWorkLine(message, worker, atMs, p)
}

/**
 * The run's input sequences for the summary: VirNucPro's `Sequences processed` is the sum of every stage's
 * `sequences` extra (pipeline_telemetry.py), its input's records plus the chunks it translated (3,152 for 1,000
 * records, test/fixtures/virnucpro/), so the count of the input is Sequence Chunking's own; the printed total stays in
 * `metrics`. Without a chunking count (a log that never logged the stage) the printed total is all there is.
 */
const INPUT_STAGE = 'Sequence Chunking'

/** Creates a parser for one run's combined stdout/stderr. */
export function createLogParser(): LogParser {
  const startedIndex = new Map<string, number>()
  const summary = createSummaryReader()
  let inputSequences: number | null = null

  const parseStage = (message: string, atMs: number, problems: ReadProblems): TargetEvent | null => {
    const architecture = architectureOf(message)
    if (architecture) return { type: 'architecture', ...architecture, atMs }
    const start = STAGE_START.exec(message)
    if (start) {
      const index = readNumber(start[1]!, 'stage number', problems)
      if (index === null) return null
      startedIndex.set(start[2]!, index)
      return { type: 'stage-start', index, name: start[2]!, atMs }
    }
    const end = STAGE_END.exec(message)
    if (!end) return null
    const parsed = end[3] === undefined ? { extras: {}, skipped: null } : parseStageExtras(end[3], problems)
    if (!parsed) return null
    const name = end[1]!
    const sequences = parsed.extras.sequences
    if (name === INPUT_STAGE && typeof sequences === 'number') inputSequences = sequences
    return {
      type: 'stage-end',
      name,
      index: startedIndex.get(name) ?? null,
      // An unreadable duration still ends the stage: its span keeps our receive times, without the log's duration.
      durationS: readNumber(end[2]!, 'stage duration', problems),
      skippedReason: parsed.skipped,
      extras: parsed.extras,
      atMs,
    }
  }

  const read = (raw: string, atMs: number, startedAtMs: number, problems: ReadProblems): TargetEvent[] => {
    const line = splitLogLine(raw, problems)
    const events: TargetEvent[] = []
    // A bar is the line's start (its whole text, or what a log line was glued to): timed by the line's first byte.
    const bar = parseTqdmRedraw(line.timestamp === null ? line.message : (line.glued ?? ''), problems)
    if (bar) events.push({ type: 'tqdm', ...bar, atMs: startedAtMs })
    // A whole line that is a bar is nothing else (10 hours of redraws are 360,000 such lines: read once each).
    if (bar && line.timestamp === null) return events
    if (line.worker !== null)
      events.push({ type: 'worker', rank: line.worker, level: line.level ?? '', message: line.message, atMs })
    if (OOM.test(line.message))
      events.push({
        type: 'oom',
        line: boundLine({ text: cleanLine(raw), cutBytes: 0 }).text,
        worker: line.worker,
        atMs,
      })
    if (line.worker === null && summary.push(line.message, problems, line.logger !== null)) {
      const block = summary.take()
      if (block)
        events.push({
          type: 'summary',
          summary: { ...block, sequencesProcessed: inputSequences ?? block.sequencesProcessed },
          atMs,
        })
      return events
    }
    const event =
      (line.worker === null ? parseStage(line.message, atMs, problems) : null) ??
      parseRateLine(line.message, line.worker, atMs, problems)
    if (event) events.push(event)
    return events
  }

  const push = (raw: string, atMs: number, startedAtMs = atMs): TargetEvent[] => {
    const problems: ReadProblems = []
    const events = read(raw, atMs, startedAtMs, problems)
    if (problems.length > 0) events.push({ type: 'read-error', line: cleanLine(raw), problems, atMs })
    return events
  }
  return { push }
}
