/**
 * The slower reads of one tick: the energy counter (~4 ms a call on an H200, so each GPU gets its own slot in the
 * interval), compute-process lists of every GPU with what /proc says about each PID, and the driver's buffered
 * utilization samples. Each read fails alone: an error becomes an error record and the others go on.
 */
import type { NvmlDevice } from '../nvml/device.ts'
import { readProcStat } from '../pipeline/proc.ts'
import type { DriverUtilRecord, EnergyRecord, ErrorRecord, ProcessEntry, ProcessesRecord } from './records.ts'

export type LowRateRecord = EnergyRecord | ProcessesRecord | DriverUtilRecord | ErrorRecord

function failed(tMs: number, gpu: number, metric: string, error: unknown): ErrorRecord {
  return { kind: 'error', tMs, gpu, metric, error: error instanceof Error ? error.message : String(error) }
}

/** Energy counter of `device` as a record; null when the GPU has no counter. */
export function readEnergy(device: NvmlDevice, tMs: number): EnergyRecord | ErrorRecord | null {
  try {
    const energyMj = device.energyMj()
    return energyMj === null ? null : { kind: 'energy', tMs, gpu: device.index, energyMj }
  } catch (error) {
    return failed(tMs, device.index, 'nvmlDeviceGetTotalEnergyConsumption', error)
  }
}

/** The compute processes on `device`, each with its /proc parentage (for attribution); null when unsupported. */
export function readProcesses(device: NvmlDevice, tMs: number): ProcessesRecord | ErrorRecord | null {
  try {
    const processes = device.processes()
    if (processes === null) return null
    const entries: ProcessEntry[] = processes.map((process) => {
      const stat = readProcStat(process.pid)
      return {
        pid: process.pid,
        usedGpuMemoryBytes: process.usedGpuMemoryBytes,
        ppid: stat?.ppid ?? null,
        pgid: stat?.pgid ?? null,
        sid: stat?.sid ?? null,
        comm: stat?.comm ?? null,
      }
    })
    return { kind: 'processes', tMs, gpu: device.index, processes: entries }
  } catch (error) {
    return failed(tMs, device.index, 'nvmlDeviceGetComputeRunningProcesses_v3', error)
  }
}

/**
 * Driver utilization samples newer than `sinceUs` (epoch microseconds), mapped onto tMs. Returns the record (null
 * when there is nothing new or the GPU keeps no samples) and the newest timestamp seen.
 */
export function readDriverUtil(
  device: NvmlDevice,
  tMs: number,
  sinceUs: number,
  startEpochMs: number,
): { record: DriverUtilRecord | ErrorRecord | null; lastSeenUs: number } {
  try {
    const samples = device.utilizationSamples('gpu', sinceUs)
    if (!samples || samples.length === 0) return { record: null, lastSeenUs: sinceUs }
    const fresh = samples.filter((sample) => sample.timeStampUs > sinceUs)
    if (fresh.length === 0) return { record: null, lastSeenUs: sinceUs }
    const lastSeenUs = Math.max(...fresh.map((sample) => sample.timeStampUs))
    const mapped = fresh.map((sample) => ({ tMs: sample.timeStampUs / 1000 - startEpochMs, utilPct: sample.valuePct }))
    return { record: { kind: 'driver-util', tMs, gpu: device.index, samples: mapped }, lastSeenUs }
  } catch (error) {
    return { record: failed(tMs, device.index, 'nvmlDeviceGetSamples', error), lastSeenUs: sinceUs }
  }
}
