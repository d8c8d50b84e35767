/**
 * trace.json in the Chrome / Perfetto JSON trace format: one process per measured run, its stages as complete slices
 * (`ph: 'X'`, µs) on a "stages" thread, and per GPU counter tracks (`ph: 'C'`) for utilization, SM utilization,
 * memory and power from the monitor series. Slices use the monitor's stage windows when present so they share the
 * counters' clock; otherwise the runner's spans. Counters are thinned evenly so that one GPU of one run has at most
 * MAX_COUNTER_POINTS points and the whole trace at most TOTAL_COUNTER_POINTS (a trace must stay loadable in a browser).
 */
import type { SampleRecord } from '../../monitor/records.ts'
import type { ResultRecord } from '../../results/schema/index.ts'

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

export interface TraceFile {
  traceEvents: TraceEvent[]
  displayTimeUnit: 'ms'
}

type SeriesMap = ReadonlyMap<string, readonly SampleRecord[]>

function slices(record: ResultRecord, runIndex: number, pid: number): TraceEvent[] {
  const run = record.runs[runIndex]
  if (!run) return []
  const windows = run.gpu?.stages
    .filter((s) => s.stage !== null)
    .flatMap((s) => s.windows.map((w) => ({ stage: s.stage as string, startMs: w.startMs, endMs: w.endMs })))
  if (windows && windows.length > 0)
    return windows.map((w) => ({
      name: w.stage,
      ph: 'X',
      cat: 'stage',
      pid,
      tid: 1,
      ts: w.startMs * 1000,
      dur: (w.endMs - w.startMs) * 1000,
    }))
  return run.run.stages.flatMap((s) =>
    s.startMs === null || s.endMs === null
      ? []
      : [
          {
            name: s.name,
            ph: 'X' as const,
            cat: 'stage',
            pid,
            tid: 1,
            ts: s.startMs * 1000,
            dur: (s.endMs - s.startMs) * 1000,
          },
        ],
  )
}

const COUNTERS: [string, (s: SampleRecord) => number | null][] = [
  ['util %', (s) => s.utilPct],
  ['SM util %', (s) => s.gpm?.smUtilPct ?? null],
  ['memory GiB', (s) => (s.memUsedBytes === null ? null : s.memUsedBytes / 2 ** 30)],
  ['power W', (s) => (s.powerMw === null ? null : s.powerMw / 1000)],
]

function counters(samples: readonly SampleRecord[], pid: number, perGpuPoints: number): TraceEvent[] {
  const byGpu = new Map<number, SampleRecord[]>()
  for (const s of samples) {
    const list = byGpu.get(s.gpu)
    if (list) list.push(s)
    else byGpu.set(s.gpu, [s])
  }
  const events: TraceEvent[] = []
  for (const [gpu, list] of byGpu) {
    const step = Math.max(1, Math.ceil(list.length / perGpuPoints))
    for (let i = 0; i < list.length; i += step) {
      const s = list[i] as SampleRecord
      for (const [label, get] of COUNTERS) {
        const value = get(s)
        if (value !== null)
          events.push({ name: `GPU ${gpu} ${label}`, ph: 'C', pid, ts: s.tMs * 1000, args: { value } })
      }
    }
  }
  return events
}

/** Pure: records and series in, the trace object out. */
export function buildTrace(records: readonly ResultRecord[], series: SeriesMap): TraceFile {
  const traceEvents: TraceEvent[] = []
  const gpuRuns = records.reduce(
    (n, r) =>
      n +
      r.runs.reduce(
        (m, run) => m + (run.gpu?.logPath && series.has(run.gpu.logPath) ? run.gpu.sampledGpus.length : 0),
        0,
      ),
    0,
  )
  const perGpuPoints = Math.max(
    10,
    Math.min(MAX_COUNTER_POINTS, Math.floor(TOTAL_COUNTER_POINTS / Math.max(1, gpuRuns))),
  )
  let pid = 0
  for (const record of records) {
    record.runs.forEach((run, index) => {
      pid++
      traceEvents.push({
        name: 'process_name',
        ph: 'M',
        pid,
        args: { name: `${record.id} / ${run.label}${run.warmup ? ' (warmup)' : ''}` },
      })
      traceEvents.push({ name: 'thread_name', ph: 'M', pid, tid: 1, args: { name: 'stages' } })
      traceEvents.push(...slices(record, index, pid))
      const samples = run.gpu?.logPath ? series.get(run.gpu.logPath) : undefined
      if (samples) traceEvents.push(...counters(samples, pid, perGpuPoints))
    })
  }
  return { traceEvents, displayTimeUnit: 'ms' }
}
