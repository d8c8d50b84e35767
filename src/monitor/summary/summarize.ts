/**
 * The monitor summary: a plain object (the result schema stores it as is) computed from the log's records alone,
 * so a summary of a crashed run's log is the same function. Per GPU over the whole run, per stage over that stage's
 * windows; per-stage statistics cover only GPUs the target was asked to use, the others are listed apart so idle
 * GPUs never dilute a stage's utilization (upstream's bug).
 */
import { MonitorLogError } from '../log-reader.ts'
import type { DeviceInfo, EndRecord, GpuLostRecord, HeaderRecord, MonitorRecord } from '../records.ts'
import { StageTimeline, type StageWindow } from '../stage-timeline.ts'
import { type Attribution, attribute } from './attribution.ts'
import { type HostMemorySummary, summarizeHostMemory } from './host-memory.ts'
import { collectSeries, stagesOf } from './series.ts'
import { type GpuSeries, type GpuWindowStats, gpuWindowStats } from './window-stats.ts'
import type { WorkSpan } from './work-onset.ts'

export interface SummaryOptions {
  /** Sequences the run processed: gives joules per sequence. */
  sequenceCount?: number | null
  /** Sequences per stage name, where known. */
  stageSequenceCounts?: Readonly<Record<string, number>>
  /** Per stage and GPU, where the pipeline's log bounds the GPU's work (work-onset.ts); none: the samples say. */
  workSpans?: readonly WorkSpan[]
}

export interface GpuSummary extends GpuWindowStats {
  device: DeviceInfo | null
  /** Asked for by the target (or no target said otherwise). */
  requested: boolean
  lost: { tMs: number; error: string } | null
}

export interface StageSummary {
  /** null: time before any stage was set, or after a stage was cleared. */
  stage: string | null
  windows: StageWindow[]
  durationMs: number
  /** Requested GPUs only. */
  gpus: GpuWindowStats[]
  /** GPUs the target was not asked to use, kept out of `gpus` and `energyJ`. */
  excludedGpus: GpuWindowStats[]
  energyJ: number | null
  jPerSequence: number | null
  throttledSamples: number
}

export interface MonitorSummary {
  version: 1
  logPath: string | null
  startedAt: string
  intervalMs: number
  durationMs: number
  sampledGpus: number[]
  requestedGpus: number[]
  gpus: GpuSummary[]
  stages: StageSummary[]
  energy: {
    totalJ: number | null
    fromPowerJ: number | null
    sequenceCount: number | null
    jPerSequence: number | null
  }
  attribution: Attribution
  flags: {
    throttled: { gpu: number; stage: string | null; samples: number }[]
    lostGpus: number[]
    unexpectedGpus: number[]
    idleRequestedGpus: number[]
    foreignProcesses: number
  }
  errors: { gpu: number | null; metric: string; count: number; first: string }[]
  sampler: Omit<EndRecord, 'kind' | 'tMs'> | null
  /**
   * Host memory of the attached target's processes; null when none was attached. Absent in summaries written before
   * the monitor sampled it (their peak GPU memory is in `gpus[].peakMemUsedBytes`, as it still is).
   */
  hostMemory?: HostMemorySummary | null
}

const sum = (values: (number | null)[]): number | null =>
  values.some((v) => v === null) || values.length === 0 ? null : values.reduce<number>((a, b) => a + (b ?? 0), 0)

/** @throws MonitorLogError when the records hold no header. */
export function summarizeRecords(
  records: readonly MonitorRecord[],
  options: SummaryOptions = {},
  logPath: string | null = null,
): MonitorSummary {
  const header = records.find((r): r is HeaderRecord => r.kind === 'header')
  if (!header) throw new MonitorLogError(logPath ?? '<records>', 1, 'no header record: not a monitor log')
  const end = records.find((r): r is EndRecord => r.kind === 'end') ?? null
  const lastMs = Math.max(0, ...records.map((r) => ('tMs' in r ? r.tMs : 0)))
  const endMs = end ? end.tMs : lastMs + header.intervalMs
  const series = collectSeries(records, header.sampledGpus)
  const attribution = attribute(
    records.filter((r) => r.kind === 'processes'),
    records.filter((r) => r.kind === 'target'),
    header.sampledGpus,
  )
  const requestedGpus =
    attribution.state === 'attributed' ? (attribution.requestedGpus ?? header.sampledGpus) : header.sampledGpus
  const timeline = new StageTimeline()
  for (const r of records) if (r.kind === 'stage') timeline.add({ tMs: r.tMs, stage: r.stage })
  const whole = [{ stage: null, startMs: 0, endMs }]
  const gpus = series.map((s) => gpuSummary(s, whole, header, records, requestedGpus))
  const stages = stagesOf(timeline.windows(0, endMs)).map(([stage, windows]) =>
    stageSummary(stage, windows, series, requestedGpus, options),
  )
  const requestedStats = gpus.filter((g) => g.requested)
  const totalJ = sum(requestedStats.map((g) => g.energyJ))
  const sequenceCount = options.sequenceCount ?? null
  return {
    version: 1,
    logPath,
    startedAt: header.startedAt,
    intervalMs: header.intervalMs,
    durationMs: endMs,
    sampledGpus: header.sampledGpus,
    requestedGpus,
    gpus,
    stages,
    energy: {
      totalJ,
      fromPowerJ: sum(requestedStats.map((g) => g.energyFromPowerJ)),
      sequenceCount,
      jPerSequence: totalJ !== null && sequenceCount ? totalJ / sequenceCount : null,
    },
    attribution,
    flags: {
      throttled: stages.flatMap((s) =>
        [...s.gpus, ...s.excludedGpus]
          .filter((g) => g.throttle.samples > 0)
          .map((g) => ({ gpu: g.gpu, stage: s.stage, samples: g.throttle.samples })),
      ),
      lostGpus: gpus.filter((g) => g.lost).map((g) => g.gpu),
      unexpectedGpus: attribution.state === 'attributed' ? attribution.unexpectedGpus : [],
      idleRequestedGpus: attribution.state === 'attributed' ? attribution.idleRequestedGpus : [],
      foreignProcesses: attribution.state === 'attributed' ? attribution.foreignProcesses.length : 0,
    },
    errors: countErrors(records),
    sampler: end ? samplerStats(end) : null,
    hostMemory: summarizeHostMemory(
      records.filter((r) => r.kind === 'host-memory').sort((a, b) => a.tMs - b.tMs),
      (tMs) => timeline.at(tMs),
    ),
  }
}

function gpuSummary(
  series: GpuSeries,
  whole: StageWindow[],
  header: HeaderRecord,
  records: readonly MonitorRecord[],
  requestedGpus: readonly number[],
): GpuSummary {
  const lost = records.find((r): r is GpuLostRecord => r.kind === 'gpu-lost' && r.gpu === series.gpu)
  return {
    ...gpuWindowStats(series, whole),
    device: header.devices.find((d) => d.index === series.gpu) ?? null,
    requested: requestedGpus.includes(series.gpu),
    lost: lost ? { tMs: lost.tMs, error: lost.error } : null,
  }
}

function stageSummary(
  stage: string | null,
  windows: StageWindow[],
  series: GpuSeries[],
  requestedGpus: readonly number[],
  options: SummaryOptions,
): StageSummary {
  const spanOf = (gpu: number) => options.workSpans?.find((w) => w.stage === stage && w.gpu === gpu) ?? null
  const stats = series.map((s) => gpuWindowStats(s, windows, spanOf(s.gpu)))
  const gpus = stats.filter((g) => requestedGpus.includes(g.gpu))
  const energyJ = sum(gpus.map((g) => g.energyJ))
  const sequences = stage === null ? undefined : options.stageSequenceCounts?.[stage]
  return {
    stage,
    windows,
    durationMs: windows.reduce((total, w) => total + w.endMs - w.startMs, 0),
    gpus,
    excludedGpus: stats.filter((g) => !requestedGpus.includes(g.gpu)),
    energyJ,
    jPerSequence: energyJ !== null && sequences ? energyJ / sequences : null,
    throttledSamples: gpus.reduce((total, g) => total + g.throttle.samples, 0),
  }
}

function samplerStats({ kind: _kind, tMs: _tMs, ...stats }: EndRecord): MonitorSummary['sampler'] {
  return stats
}

function countErrors(records: readonly MonitorRecord[]): MonitorSummary['errors'] {
  const byKey = new Map<string, MonitorSummary['errors'][number]>()
  for (const r of records) {
    if (r.kind !== 'error') continue
    const key = `${r.gpu}:${r.metric}`
    const seen = byKey.get(key)
    if (seen) seen.count++
    else byKey.set(key, { gpu: r.gpu, metric: r.metric, count: 1, first: r.error })
  }
  return [...byKey.values()]
}
