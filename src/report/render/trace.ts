/**
 * trace.json in the Chrome / Perfetto JSON trace format: one process per measured run, its stages as complete slices
 * (`ph: 'X'`, µs) on a "stages" thread, and per GPU counter tracks (`ph: 'C'`) for utilization, SM utilization,
 * memory and power from the monitor series. Slices use the monitor's stage windows when present so they share the
 * counters' clock; otherwise the runner's spans. Counters are thinned evenly so that one GPU of one run has at most
 * MAX_COUNTER_POINTS points and the whole trace at most TOTAL_COUNTER_POINTS (a trace must stay loadable in a browser).
 * Times are whole µs: finer digits are clock noise (`2123034.4329999997`), and a large run's trace has ~10^6 events,
 * whose serialization is mostly printing numbers (integers print several times faster than fractions). Events are
 * serialized in chunks as they are made (json-array.ts), never held all at once.
 */
import type { SampleRecord } from '../../monitor/records.ts'
import type { MeasuredRun, ResultRecord } from '../../results/schema/index.ts'
import { type JsonArrayWriter, jsonArrayWriter } from './json-array.ts'

export const MAX_COUNTER_POINTS = 1_000
export const TOTAL_COUNTER_POINTS = 100_000

export interface TraceEvent {
  name: string
  ph: 'X' | 'C' | 'M'
  pid: number
  tid?: number
  ts?: number
  dur?: number
  cat?: string
  args?: Record<string, unknown>
}

type SeriesMap = ReadonlyMap<string, readonly SampleRecord[]>

const us = (ms: number) => Math.round(ms * 1000)

function slice(name: string, pid: number, startMs: number, endMs: number): TraceEvent {
  const ts = us(startMs)
  return { name, ph: 'X', cat: 'stage', pid, tid: 1, ts, dur: us(endMs) - ts }
}

function slices(run: MeasuredRun, pid: number, out: JsonArrayWriter<TraceEvent>): void {
  let windows = 0
  for (const s of run.gpu?.stages ?? []) {
    if (s.stage === null) continue
    for (const w of s.windows) out.push(slice(s.stage, pid, w.startMs, w.endMs))
    windows += s.windows.length
  }
  if (windows > 0) return
  for (const s of run.run.stages)
    if (s.startMs !== null && s.endMs !== null) out.push(slice(s.name, pid, s.startMs, s.endMs))
}

const COUNTERS: [string, (s: SampleRecord) => number | null][] = [
  ['util %', (s) => s.utilPct],
  ['SM util %', (s) => s.gpm?.smUtilPct ?? null],
  ['memory GiB', (s) => (s.memUsedBytes === null ? null : s.memUsedBytes / 2 ** 30)],
  ['power W', (s) => (s.powerMw === null ? null : s.powerMw / 1000)],
]

/** One GPU's counter track of one series: its samples after thinning, in time order. */
interface Track {
  gpu: number
  picked: SampleRecord[]
}

/** Every `step`-th sample of each GPU (GPUs in first-seen order), in one pass after counting, with no copy per GPU. */
function thin(samples: readonly SampleRecord[], perGpuPoints: number): Track[] {
  const counts = new Map<number, number>()
  for (const s of samples) counts.set(s.gpu, (counts.get(s.gpu) ?? 0) + 1)
  const tracks = new Map<number, Track & { step: number; seen: number }>()
  for (const [gpu, count] of counts)
    tracks.set(gpu, { gpu, picked: [], step: Math.max(1, Math.ceil(count / perGpuPoints)), seen: 0 })
  for (const s of samples) {
    const track = tracks.get(s.gpu) as Track & { step: number; seen: number }
    if (track.seen++ % track.step === 0) track.picked.push(s)
  }
  return [...tracks.values()]
}

function counters(tracks: readonly Track[], pid: number, out: JsonArrayWriter<TraceEvent>): void {
  for (const { gpu, picked } of tracks) {
    const names = COUNTERS.map(([label]) => `GPU ${gpu} ${label}`)
    for (const s of picked) {
      const ts = us(s.tMs)
      for (let k = 0; k < COUNTERS.length; k++) {
        const value = (COUNTERS[k] as (typeof COUNTERS)[number])[1](s)
        if (value !== null) out.push({ name: names[k] as string, ph: 'C', pid, ts, args: { value } })
      }
    }
  }
}

/** Counter points per GPU of one run, so that the whole trace stays within TOTAL_COUNTER_POINTS. */
function pointsPerGpu(records: readonly ResultRecord[], series: SeriesMap): number {
  let gpuRuns = 0
  for (const r of records)
    for (const run of r.runs) if (run.gpu?.logPath && series.has(run.gpu.logPath)) gpuRuns += run.gpu.sampledGpus.length
  return Math.max(10, Math.min(MAX_COUNTER_POINTS, Math.floor(TOTAL_COUNTER_POINTS / Math.max(1, gpuRuns))))
}

/** Pure: records and series in, the trace file's text out (compact JSON, no trailing newline). */
export function traceJson(records: readonly ResultRecord[], series: SeriesMap): string {
  const events = jsonArrayWriter<TraceEvent>()
  const perGpuPoints = pointsPerGpu(records, series)
  // Thinned once per series: runs that name one log share its tracks.
  const tracksOf = new Map<readonly SampleRecord[], Track[]>()
  let pid = 0
  for (const record of records) {
    for (const run of record.runs) {
      pid++
      const name = `${record.id} / ${run.label}${run.warmup ? ' (warmup)' : ''}`
      events.push({ name: 'process_name', ph: 'M', pid, args: { name } })
      events.push({ name: 'thread_name', ph: 'M', pid, tid: 1, args: { name: 'stages' } })
      slices(run, pid, events)
      const samples = run.gpu?.logPath ? series.get(run.gpu.logPath) : undefined
      if (samples) {
        let tracks = tracksOf.get(samples)
        if (!tracks) {
          tracks = thin(samples, perGpuPoints)
          tracksOf.set(samples, tracks)
        }
        counters(tracks, pid, events)
      }
    }
  }
  return `{"traceEvents":${events.text()},"displayTimeUnit":"ms"}`
}
