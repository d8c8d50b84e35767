/**
 * What the suites need from a monitor log beyond its summary: device memory before the target started and after its
 * tree was gone (the leak check), device memory over the ESM-2 batches (the in-run slope), and where the target's
 * PIDs held contexts (the runner's `gpusUsedBy` hook, answered from the log written so far).
 */
import { theilSenSlope } from '../measure/index.ts'
import { readMonitorLog } from '../monitor/log-reader.ts'
import type { MonitorRecord, SampleRecord } from '../monitor/records.ts'
import { gpusUsedBy } from '../monitor/summary/attribution.ts'

export interface GpuMemoryObservation {
  gpu: number
  /** Last device reading before the target was spawned; null without one. */
  beforeBytes: number | null
  /** Last device reading after the run's tree was gone; null without one. */
  afterBytes: number | null
  memTotalBytes: number | null
  /** Theil-Sen slope of device memory on the ESM-2 batch index (bytes per batch); null with fewer than 3 points. */
  esm2SlopeBytesPerBatch: number | null
}

export interface RunWindow {
  /** Monitor clock (ms) when the target was spawned and when runTarget returned. */
  spawnMs: number
  endMs: number
  /** Monitor-clock times of the ESM-2 batch events. */
  esm2BatchMs: number[]
}

const samplesOf = (records: readonly MonitorRecord[], gpu: number) =>
  records.filter((r): r is SampleRecord => r.kind === 'sample' && r.gpu === gpu && r.memUsedBytes !== null)

/** The device-memory reading of the latest sample at or before each batch time (batch index -> bytes). */
function memoryPerBatch(samples: readonly SampleRecord[], batchMs: readonly number[]): [number, number][] {
  const points: [number, number][] = []
  batchMs.forEach((tMs, index) => {
    const sample = samples.findLast((s) => s.tMs <= tMs)
    if (sample?.memUsedBytes != null) points.push([index, sample.memUsedBytes])
  })
  return points
}

/** Memory observations for every sampled GPU. */
export function memoryObservations(records: readonly MonitorRecord[], window: RunWindow): GpuMemoryObservation[] {
  const header = records.find((r) => r.kind === 'header')
  if (header?.kind !== 'header') return []
  return header.sampledGpus.map((gpu) => {
    const samples = samplesOf(records, gpu)
    const before = samples.findLast((s) => s.tMs < window.spawnMs)
    const after = samples.findLast((s) => s.tMs >= window.endMs)
    const points = memoryPerBatch(samples, window.esm2BatchMs)
    // Theil-Sen rather than least squares: an allocator that grows once and then holds (a step, seen on an H200 when
    // the batches' shapes change late in the stage) is not a leak; memory rising batch after batch is.
    const slope =
      points.length >= 3
        ? theilSenSlope(
            points.map(([x]) => x),
            points.map(([, y]) => y),
          )
        : null
    return {
      gpu,
      beforeBytes: before?.memUsedBytes ?? null,
      afterBytes: after?.memUsedBytes ?? null,
      memTotalBytes: header.devices.find((d) => d.index === gpu)?.memTotalBytes ?? null,
      esm2SlopeBytesPerBatch: slope,
    }
  })
}

/** The runner's `gpusUsedBy` hook: GPUs on which `pids` held a context, per the log written so far. */
export async function gpusUsedFromLog(logPath: string, pids: number[]): Promise<number[]> {
  const log = await readMonitorLog(logPath)
  return gpusUsedBy(
    log.records.filter((r) => r.kind === 'processes'),
    pids,
  )
}
