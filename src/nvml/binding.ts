/**
 * The shape of the native addon (native/nvml), as load.ts hands it out. Every function is one NVML call: `ret` is
 * NVML's return code, the rest are raw outputs (64-bit counters as bigint). Nothing here validates or converts.
 */

/** An opaque nvmlDevice_t (a type-tagged N-API external). */
export type NativeDeviceHandle = { readonly __nvmlDevice: unique symbol }
/** An opaque nvmlGpmSample_t; free it with gpmSampleFree. */
export type NativeGpmSample = { readonly __nvmlGpmSample: unique symbol }

export interface RetValue<T> {
  ret: number
  value: T
}

export interface NativeStructLayout {
  size: number
  offsets: Record<string, number>
}

export interface NativeSample {
  timeStamp: bigint
  value: number | bigint
}

export interface NativeProcess {
  pid: number
  usedGpuMemory: bigint
  gpuInstanceId: number
  computeInstanceId: number
}

export interface NativeGpmMetric {
  metricId: number
  ret: number
  value: number
  shortName: string | null
  longName: string | null
  unit: string | null
}

export interface NativePciInfo {
  ret: number
  busIdLegacy: string
  domain: number
  bus: number
  device: number
  pciDeviceId: number
  pciSubSystemId: number
  busId: string
}

export interface NvmlNative {
  openLibrary(path: string): { loaded: boolean; error: string | null }
  /** `{symbolName: found, $path}` for the library calls go through, null before one is opened. */
  librarySymbols(): (Record<string, boolean> & { $path: string }) | null
  structLayouts(): Record<string, NativeStructLayout> & { memoryV2Version: number }
  init(): number
  shutdown(): number
  errorString(ret: number): string | null
  systemGetDriverVersion(): RetValue<string>
  systemGetNvmlVersion(): RetValue<string>
  deviceGetCount(): RetValue<number>
  deviceGetHandleByIndex(index: number): { ret: number; handle: NativeDeviceHandle | null }
  deviceGetName(device: NativeDeviceHandle): RetValue<string>
  deviceGetUuid(device: NativeDeviceHandle): RetValue<string>
  deviceGetPciInfo(device: NativeDeviceHandle): NativePciInfo
  deviceGetMemoryInfo(device: NativeDeviceHandle): { ret: number; total: bigint; free: bigint; used: bigint }
  deviceGetMemoryInfoV2(device: NativeDeviceHandle): {
    ret: number
    version: number
    total: bigint
    reserved: bigint
    free: bigint
    used: bigint
  }
  deviceGetUtilizationRates(device: NativeDeviceHandle): { ret: number; gpu: number; memory: number }
  deviceGetSamples(
    device: NativeDeviceHandle,
    samplingType: number,
    lastSeenTimeStamp: bigint,
    capacity: number,
  ): { ret: number; valueType: number; count: number; samples: NativeSample[] }
  deviceGetTemperature(device: NativeDeviceHandle, sensor: number): RetValue<number>
  deviceGetPowerUsage(device: NativeDeviceHandle): RetValue<number>
  deviceGetEnforcedPowerLimit(device: NativeDeviceHandle): RetValue<number>
  deviceGetTotalEnergyConsumption(device: NativeDeviceHandle): RetValue<bigint>
  deviceGetClockInfo(device: NativeDeviceHandle, clockType: number): RetValue<number>
  deviceGetCurrentClocksEventReasons(device: NativeDeviceHandle): RetValue<bigint>
  deviceGetCurrentClocksThrottleReasons(device: NativeDeviceHandle): RetValue<bigint>
  deviceGetComputeRunningProcesses(
    device: NativeDeviceHandle,
    capacity: number,
  ): { ret: number; count: number; processes: NativeProcess[] }
  gpmQueryDeviceSupport(device: NativeDeviceHandle): { ret: number; version: number; isSupportedDevice: number }
  gpmSampleAlloc(): { ret: number; sample: NativeGpmSample | null }
  gpmSampleGet(device: NativeDeviceHandle, sample: NativeGpmSample): number
  gpmMetricsGet(
    first: NativeGpmSample,
    second: NativeGpmSample,
    metricIds: number[],
  ): { ret: number; metrics: NativeGpmMetric[] }
  gpmSampleFree(sample: NativeGpmSample): number
}
