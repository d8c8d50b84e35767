/**
 * The two NVML calls that fill caller-sized arrays: the compute process list and buffered utilization samples.
 * The native layer does one call per request; growing the buffer and retrying on INSUFFICIENT_SIZE happens here.
 */
import type { NativeDeviceHandle, NvmlNative } from './binding.ts'
import { NVML_ERROR_INSUFFICIENT_SIZE, NVML_ERROR_NOT_FOUND } from './errors.ts'
import type { MetricReader } from './reader.ts'

/** NVML_VALUE_NOT_AVAILABLE as an unsigned 64-bit value: "this process's memory is not known". */
const VALUE_NOT_AVAILABLE = 0xffff_ffff_ffff_ffffn
/** The list can grow between two calls (a process starts); give up after this many rounds. */
const MAX_GROW_ROUNDS = 6

export interface GpuProcess {
  /** Host PID, also inside containers. */
  pid: number
  /** null when NVML cannot attribute memory (NVML_VALUE_NOT_AVAILABLE, e.g. without permission). */
  usedGpuMemoryBytes: number | null
  gpuInstanceId: number
  computeInstanceId: number
}

export interface UtilizationSample {
  /** CPU timestamp NVML stamped on the sample, microseconds since the epoch. */
  timeStampUs: number
  /** Percent. */
  valuePct: number
}

export interface ListTarget {
  native: NvmlNative
  handle: NativeDeviceHandle
  reader: MetricReader
  index: number
}

/**
 * Every compute process on the device, by nvmlDeviceGetComputeRunningProcesses_v3 (24-byte entries).
 * @returns null when the driver cannot list processes here (warned once).
 * @throws NvmlError for other failures, or when the list keeps outgrowing the buffer.
 */
export function readComputeProcesses(target: ListTarget, initialCapacity = 16): GpuProcess[] | null {
  const call = 'nvmlDeviceGetComputeRunningProcesses_v3'
  let capacity = initialCapacity
  for (let round = 0; round < MAX_GROW_ROUNDS; round++) {
    const result = target.native.deviceGetComputeRunningProcesses(target.handle, capacity)
    if (result.ret === NVML_ERROR_INSUFFICIENT_SIZE) {
      capacity = Math.max(result.count + 8, capacity * 2)
      continue
    }
    const processes = target.reader.value(call, target.index, result.ret, result.processes)
    return processes === null ? null : processes.map(toGpuProcess)
  }
  throw target.reader.error(call, target.index, NVML_ERROR_INSUFFICIENT_SIZE)
}

function toGpuProcess(process: {
  pid: number
  usedGpuMemory: bigint
  gpuInstanceId: number
  computeInstanceId: number
}): GpuProcess {
  return {
    pid: process.pid,
    usedGpuMemoryBytes: process.usedGpuMemory === VALUE_NOT_AVAILABLE ? null : Number(process.usedGpuMemory),
    gpuInstanceId: process.gpuInstanceId,
    computeInstanceId: process.computeInstanceId,
  }
}

export const SAMPLING_TYPE = { gpu: 1, memory: 2 } as const
export type UtilizationKind = keyof typeof SAMPLING_TYPE

/**
 * NVML's buffered utilization samples newer than `sinceUs` (nvmlDeviceGetSamples). No new sample is `[]`.
 * @returns null when the device does not keep samples (warned once).
 * @throws NvmlError for other failures.
 */
export function readUtilizationSamples(
  target: ListTarget,
  kind: UtilizationKind,
  sinceUs = 0,
): UtilizationSample[] | null {
  const call = 'nvmlDeviceGetSamples'
  const since = BigInt(Math.max(0, Math.floor(sinceUs)))
  const sized = target.native.deviceGetSamples(target.handle, SAMPLING_TYPE[kind], since, 0)
  if (sized.ret === NVML_ERROR_NOT_FOUND) return []
  if (target.reader.value(call, target.index, sized.ret, sized) === null) return null
  let capacity = Math.max(1, sized.count)
  for (let round = 0; round < MAX_GROW_ROUNDS; round++) {
    const result = target.native.deviceGetSamples(target.handle, SAMPLING_TYPE[kind], since, capacity)
    if (result.ret === NVML_ERROR_NOT_FOUND) return []
    if (result.ret === NVML_ERROR_INSUFFICIENT_SIZE) {
      capacity = Math.max(result.count, capacity * 2)
      continue
    }
    const samples = target.reader.value(call, target.index, result.ret, result.samples)
    return samples === null
      ? null
      : samples.map((sample) => ({ timeStampUs: Number(sample.timeStamp), valuePct: Number(sample.value) }))
  }
  throw target.reader.error(call, target.index, NVML_ERROR_INSUFFICIENT_SIZE)
}
