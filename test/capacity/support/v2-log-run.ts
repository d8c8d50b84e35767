/**
 * The real v2 log of a 2-GPU capacity run (test/fixtures/virnucpro/v2-2gpu-3750.log) as the suite would have recorded
 * it, with a monitor series built for it: each GPU idle through its stage's start but for a short blip when its
 * worker's ESM-2 model is loaded onto it, idle again while the worker's loader reads its share and buffers, 60-75% busy
 * from its worker's `First batch ready` to its `Async inference complete`, idle through the aggregation after.
 * Events are timed on the log's own clock (ms from its first stamp), the monitor's clock runs MONITOR_LEAD_MS ahead
 * (it starts before the spawn), so a test reads the two clocks apart as the suite does.
 */
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { logStampMs, progressFromLog } from '../../../src/engine/progress-from-log.ts'
import type { MonitorRecord, SampleRecord } from '../../../src/monitor/records.ts'
import type { TargetEvent } from '../../../src/pipeline/events.ts'
import { textLines } from '../../../src/pipeline/log-file-lines.ts'
import { splitLogLine } from '../../../src/pipeline/log-line.ts'
import { createLogParser } from '../../../src/pipeline/log-parser.ts'
import type { RunRecord } from '../../../src/pipeline/run-record.ts'
import { buildStageSpans } from '../../../src/pipeline/stage-spans.ts'
import type { StageProgress } from '../../../src/results/schema/index.ts'
import { header, sample } from '../../monitor/support/records.ts'

export const ESM2 = 'ESM-2 Feature Extraction'
export const DNABERT = 'DNABERT-S Feature Extraction'
export const MONITOR_LEAD_MS = 2_000
export const INTERVAL_MS = 250
/** The GPUs' utilization while their batches run: 60-75%. */
export const BUSY_LOW_PCT = 60
export const BUSY_HIGH_PCT = 75

const LOG = join(import.meta.dirname, '../../fixtures/virnucpro/v2-2gpu-3750.log')

/** The log's lines, its events on its own clock, and its progress as the collector keeps it. */
export function v2LogEvents(): { events: TargetEvent[]; progress: StageProgress[] } {
  const lines = textLines(readFileSync(LOG, 'utf8'))
  const parser = createLogParser()
  const events: TargetEvent[] = []
  let firstMs: number | null = null
  let nowMs = 0
  for (const raw of lines) {
    const stampMs = logStampMs(splitLogLine(raw).timestamp)
    if (stampMs !== null) {
      firstMs ??= stampMs
      nowMs = stampMs - firstMs
    }
    events.push(...parser.push(raw, nowMs))
  }
  return { events, progress: progressFromLog(lines) }
}

/** The run record's fields the capacity model reads, from the log's stage lines; the run used GPUs 0 and 1. */
export function v2Run(events: readonly TargetEvent[]): RunRecord {
  const { spans } = buildStageSpans(events)
  return {
    exitClass: 'completed',
    wallMs: Math.max(...events.map((e) => e.atMs)),
    stages: spans,
    gpusRequested: [0, 1],
    gpusUsed: [0, 1],
  } as unknown as RunRecord
}

/** When worker `rank` logged a line matching `pattern` (read from its raw worker lines, not the parser under test). */
const workerLineMs = (events: readonly TargetEvent[], rank: number, pattern: RegExp) =>
  events.find((e) => e.type === 'worker' && e.rank === rank && pattern.test(e.message))!.atMs

/** A GPU's utilization at log time `atMs`: the blip, the wait, the batches (60-75%, varying), the drain. */
function utilAt(gpu: number, atMs: number, events: readonly TargetEvent[]): number {
  const loadedMs = workerLineMs(events, gpu, /^Model loaded/)
  if (atMs >= loadedMs && atMs < loadedMs + 750) return 45
  const firstBatchMs = workerLineMs(events, gpu, /^First batch ready/)
  const endMs = workerLineMs(events, gpu, /^Async inference complete/)
  if (atMs >= firstBatchMs && atMs < endMs)
    return BUSY_LOW_PCT + ((atMs / INTERVAL_MS) % (BUSY_HIGH_PCT - BUSY_LOW_PCT + 1))
  return 0
}

/** The monitor's records for the run: stage changes as the runner set them, samples of GPUs 0 and 1. */
export function v2MonitorRecords(events: readonly TargetEvent[], run: RunRecord): MonitorRecord[] {
  const records: MonitorRecord[] = [header([0, 1], INTERVAL_MS)]
  for (const s of run.stages) {
    records.push({ kind: 'stage', tMs: s.startMs! + MONITOR_LEAD_MS, stage: s.name })
    records.push({ kind: 'stage', tMs: s.endMs! + MONITOR_LEAD_MS, stage: null })
  }
  records.sort((a, b) => ('tMs' in a ? a.tMs : -1) - ('tMs' in b ? b.tMs : -1))
  const samples: SampleRecord[] = []
  for (let atMs = 0; atMs <= run.wallMs; atMs += INTERVAL_MS)
    for (const gpu of [0, 1]) samples.push(sample(gpu, atMs + MONITOR_LEAD_MS, { utilPct: utilAt(gpu, atMs, events) }))
  return [...records, ...samples]
}
