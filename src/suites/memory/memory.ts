/**
 * Memory suite (kind `memory`): device memory back to the pre-run baseline once the process tree is gone (leak after
 * the run), memory growth over the ESM-2 batches (leak within the run), peak per stage against capacity, OOM handling
 * of a configuration that cannot fit, and the persistent-models trade-off where the target has the flag.
 * `stats` has the shape MemoryStats. Sizes in bytes.
 */

import { completedRuns, type MeasuredConfiguration } from '../../engine/measure-configuration.ts'
import { type EstimateStat, estimate, toStat } from '../../engine/stage-metrics.ts'
import { compareRuns, type RegressionResult } from '../../measure/index.ts'

export interface MemoryStats {
  configuration: string
  leak: {
    label: string
    gpu: number
    beforeBytes: number | null
    afterBytes: number | null
    deltaBytes: number | null
  }[]
  esm2Slope: { gpu: number; bytesPerBatch: EstimateStat | null; batches: number }[]
  peaks: {
    stage: string
    gpu: number
    peakMemUsedBytes: number
    capacityBytes: number | null
    shareOfCapacity: number | null
  }[]
  oom: {
    label: string
    exitClass: string
    sawOom: boolean
    survivors: number
    gpuCheck: string
    handled: boolean
  } | null
  persistentModels: {
    wallTime: RegressionResult | null
    peakOnBytes: number | null
    peakOffBytes: number | null
  } | null
}

export interface MemoryInput {
  /** Ordinary runs of the configuration under test. */
  main: MeasuredConfiguration
  /** A configuration that cannot fit (e.g. `--inject oom` or an oversize batch); absent: not tested. */
  oom?: MeasuredConfiguration | null
  /** Persistent models on and off; absent when the target has no such flag (`persistentReason` says why). */
  persistent?: { on: MeasuredConfiguration; off: MeasuredConfiguration } | null
  persistentReason?: string
}

function requestedGpus(m: MeasuredConfiguration): (gpu: number) => boolean {
  return (gpu) => m.config.gpus === null || m.config.gpus.includes(gpu)
}

function leakEntries(m: MeasuredConfiguration): MemoryStats['leak'] {
  const wanted = requestedGpus(m)
  return completedRuns(m).flatMap((o) =>
    o.memory
      .filter((g) => wanted(g.gpu))
      .map((g) => ({
        label: o.measured.label,
        gpu: g.gpu,
        beforeBytes: g.beforeBytes,
        afterBytes: g.afterBytes,
        deltaBytes: g.beforeBytes !== null && g.afterBytes !== null ? g.afterBytes - g.beforeBytes : null,
      })),
  )
}

function peakEntries(m: MeasuredConfiguration): MemoryStats['peaks'] {
  const runs = completedRuns(m)
  const capacity = new Map(runs.flatMap((o) => o.memory.map((g) => [g.gpu, g.memTotalBytes] as const)))
  const peaks = new Map<string, { stage: string; gpu: number; peak: number }>()
  for (const o of runs)
    for (const s of o.measured.gpu?.stages ?? [])
      for (const g of s.gpus) {
        if (s.stage === null || g.peakMemUsedBytes === null) continue
        const key = `${s.stage}\u0000${g.gpu}`
        const seen = peaks.get(key)
        if (!seen || g.peakMemUsedBytes > seen.peak)
          peaks.set(key, { stage: s.stage, gpu: g.gpu, peak: g.peakMemUsedBytes })
      }
  return [...peaks.values()].map(({ stage, gpu, peak }) => {
    const cap = capacity.get(gpu) ?? null
    return { stage, gpu, peakMemUsedBytes: peak, capacityBytes: cap, shareOfCapacity: cap ? peak / cap : null }
  })
}

function slopeEntries(m: MeasuredConfiguration): MemoryStats['esm2Slope'] {
  const runs = completedRuns(m)
  const gpus = [...new Set(runs.flatMap((o) => o.memory.map((g) => g.gpu)))].filter(requestedGpus(m))
  return gpus.map((gpu) => ({
    gpu,
    bytesPerBatch: toStat(
      estimate(
        runs.map((o) => o.memory.find((g) => g.gpu === gpu)?.esm2SlopeBytesPerBatch ?? null),
        `ESM-2 slope GPU ${gpu}`,
      ),
    ),
    batches: Math.max(0, ...runs.map((o) => o.esm2Batches.length)),
  }))
}

function oomEntry(m: MeasuredConfiguration | null | undefined): MemoryStats['oom'] {
  const o = m?.observations.find((x) => !x.measured.warmup) ?? m?.observations[0]
  if (!o) return null
  const run = o.measured.run
  const gpuCheck =
    typeof run.cleanup?.gpuCheck === 'string' ? run.cleanup.gpuCheck : (run.cleanup?.gpuCheck.state ?? 'none')
  const survivors = run.cleanup?.survivors.length ?? 0
  const handled = run.exitClass === 'oom' && survivors === 0 && (gpuCheck === 'clean' || gpuCheck === 'not-run')
  return { label: o.measured.label, exitClass: run.exitClass, sawOom: run.sawOom, survivors, gpuCheck, handled }
}

function peakOf(m: MeasuredConfiguration): number | null {
  const peaks = peakEntries(m).map((p) => p.peakMemUsedBytes)
  return peaks.length > 0 ? Math.max(...peaks) : null
}

function persistentEntry(p: MemoryInput['persistent']): MemoryStats['persistentModels'] {
  if (!p) return null
  const on = completedRuns(p.on).map((o) => o.measured.run.wallMs)
  const off = completedRuns(p.off).map((o) => o.measured.run.wallMs)
  const wallTime = on.length > 0 && off.length > 0 ? compareRuns(on, off) : null
  return { wallTime, peakOnBytes: peakOf(p.on), peakOffBytes: peakOf(p.off) }
}

/** Gathers the memory figures. */
export function memoryStats(input: MemoryInput): MemoryStats {
  return {
    configuration: input.main.config.label,
    leak: leakEntries(input.main),
    esm2Slope: slopeEntries(input.main),
    peaks: peakEntries(input.main),
    oom: oomEntry(input.oom),
    persistentModels: persistentEntry(input.persistent),
  }
}
