/**
 * One GPU as NVML sees it: identity, a fast snapshot of every per-tick metric, and the slower reads (energy, power
 * limit, processes, buffered samples). Units are in the names. A metric this GPU cannot give is null (warned once);
 * NVML_ERROR_GPU_IS_LOST marks the device lost for good: snapshots then say `state: 'lost'` without calling NVML.
 */
import type { NativeDeviceHandle, NvmlNative } from './binding.ts'
import {
  type GpuProcess,
  type ListTarget,
  readComputeProcesses,
  readUtilizationSamples,
  type UtilizationKind,
  type UtilizationSample,
} from './device-lists.ts'
import { isNvmlError, NVML_ERROR_ARGUMENT_VERSION_MISMATCH, NVML_ERROR_GPU_IS_LOST, type NvmlError } from './errors.ts'
import type { MetricReader } from './reader.ts'

const TEMPERATURE_GPU = 0
const CLOCK_SM = 1
const CLOCK_MEM = 2

export interface DeviceIdentity {
  index: number
  name: string
  uuid: string
  /** e.g. `00000000:18:00.0` */
  pciBusId: string
  memTotalBytes: number
}

/** Everything one snapshot reads; each field is null when this GPU or driver cannot give it. */
export interface DeviceReadings {
  utilGpuPct: number | null
  utilMemoryPct: number | null
  memUsedBytes: number | null
  memFreeBytes: number | null
  memTotalBytes: number | null
  /** Only from nvmlDeviceGetMemoryInfo_v2; null with the v1 call (which counts it as used). */
  memReservedBytes: number | null
  powerMw: number | null
  temperatureC: number | null
  smClockMhz: number | null
  memClockMhz: number | null
  /** Clock-event reason bits (see clock-reasons.ts). */
  clockEventReasons: number | null
}

export type DeviceSnapshot =
  | ({ state: 'ok'; index: number; timeMs: number } & DeviceReadings)
  | { state: 'lost'; index: number; timeMs: number; error: NvmlError }

/** Which NVML entry points this device reads through, for run metadata. */
export interface DeviceApis {
  memory: 'nvmlDeviceGetMemoryInfo_v2' | 'nvmlDeviceGetMemoryInfo'
  clockEventReasons: 'nvmlDeviceGetCurrentClocksEventReasons' | 'nvmlDeviceGetCurrentClocksThrottleReasons'
}

export interface DeviceInit {
  native: NvmlNative
  reader: MetricReader
  index: number
  handle: NativeDeviceHandle | null
  symbols: Readonly<Record<string, boolean>>
  lostError?: NvmlError
}

export class NvmlDevice {
  readonly index: number
  /** For gpm.ts and device-lists.ts; not for callers. */
  readonly native: NvmlNative
  readonly reader: MetricReader
  readonly #handle: NativeDeviceHandle | null
  #lost: NvmlError | null
  #apis: DeviceApis

  constructor(init: DeviceInit) {
    this.index = init.index
    this.native = init.native
    this.reader = init.reader
    this.#handle = init.handle
    this.#lost = init.lostError ?? null
    this.#apis = {
      memory: init.symbols.nvmlDeviceGetMemoryInfo_v2 ? 'nvmlDeviceGetMemoryInfo_v2' : 'nvmlDeviceGetMemoryInfo',
      clockEventReasons: init.symbols.nvmlDeviceGetCurrentClocksEventReasons
        ? 'nvmlDeviceGetCurrentClocksEventReasons'
        : 'nvmlDeviceGetCurrentClocksThrottleReasons',
    }
  }

  /** The GPU_IS_LOST error that retired this device, or null while it answers. */
  get lost(): NvmlError | null {
    return this.#lost
  }

  get apis(): Readonly<DeviceApis> {
    return this.#apis
  }

  /** Name, UUID, PCI bus id and total memory. @throws NvmlError (GPU lost included). */
  identity(): DeviceIdentity {
    return this.guard((handle) => {
      const { native, reader, index } = this
      const name = native.deviceGetName(handle)
      const uuid = native.deviceGetUuid(handle)
      const pci = native.deviceGetPciInfo(handle)
      const memory = this.#readMemory(handle)
      return {
        index,
        name: reader.required('nvmlDeviceGetName', index, name.ret, name.value),
        uuid: reader.required('nvmlDeviceGetUUID', index, uuid.ret, uuid.value),
        pciBusId: reader.required('nvmlDeviceGetPciInfo_v3', index, pci.ret, pci.busId),
        memTotalBytes: reader.required(this.#apis.memory, index, memory.ret, memory.totalBytes),
      }
    })
  }

  /**
   * Reads utilization, memory, power, temperature, SM/memory clocks and clock-event reasons once each (not energy:
   * ~4 ms on an H200). Never throws for a lost GPU. @throws NvmlError for unexpected return codes.
   */
  snapshot(): DeviceSnapshot {
    const timeMs = Date.now()
    if (this.#lost) return { state: 'lost', index: this.index, timeMs, error: this.#lost }
    try {
      return { state: 'ok', index: this.index, timeMs, ...this.guard((handle) => this.#readAll(handle)) }
    } catch (error) {
      if (this.#lost) return { state: 'lost', index: this.index, timeMs, error: this.#lost }
      throw error
    }
  }

  /** Total energy since the driver loaded, millijoules. null when unsupported. @throws NvmlError */
  energyMj(): number | null {
    return this.guard((handle) => {
      const energy = this.native.deviceGetTotalEnergyConsumption(handle)
      const value = this.reader.value('nvmlDeviceGetTotalEnergyConsumption', this.index, energy.ret, energy.value)
      return value === null ? null : Number(value)
    })
  }

  /** The power limit the driver enforces, milliwatts. null when unsupported. @throws NvmlError */
  powerLimitMw(): number | null {
    return this.guard((handle) => {
      const limit = this.native.deviceGetEnforcedPowerLimit(handle)
      return this.reader.value('nvmlDeviceGetEnforcedPowerLimit', this.index, limit.ret, limit.value)
    })
  }

  /** Compute processes with their GPU memory. null when unsupported. @throws NvmlError */
  processes(): GpuProcess[] | null {
    return this.guard((handle) => readComputeProcesses(this.#listTarget(handle)))
  }

  /** Buffered GPU or memory utilization samples newer than `sinceUs` (microseconds). @throws NvmlError */
  utilizationSamples(kind: UtilizationKind, sinceUs = 0): UtilizationSample[] | null {
    return this.guard((handle) => readUtilizationSamples(this.#listTarget(handle), kind, sinceUs))
  }

  /**
   * Runs `read` against the live handle; a GPU_IS_LOST from it retires the device before the error propagates.
   * @throws NvmlError (GPU_IS_LOST at once when the device is already lost)
   */
  guard<T>(read: (handle: NativeDeviceHandle) => T): T {
    if (this.#lost || !this.#handle)
      throw this.#lost ?? this.reader.error('nvmlDeviceGetHandleByIndex_v2', this.index, NVML_ERROR_GPU_IS_LOST)
    try {
      return read(this.#handle)
    } catch (error) {
      if (isNvmlError(error, 'NVML_ERROR_GPU_IS_LOST')) this.#lost = error
      throw error
    }
  }

  #listTarget(handle: NativeDeviceHandle): ListTarget {
    return { native: this.native, handle, reader: this.reader, index: this.index }
  }

  #readAll(handle: NativeDeviceHandle): DeviceReadings {
    const { native, reader, index } = this
    const util = reader.value(
      'nvmlDeviceGetUtilizationRates',
      index,
      ...retOf(native.deviceGetUtilizationRates(handle)),
    )
    const memory = this.#readMemory(handle)
    const memoryOk = reader.value(this.#apis.memory, index, memory.ret, memory)
    const power = native.deviceGetPowerUsage(handle)
    const temperature = native.deviceGetTemperature(handle, TEMPERATURE_GPU)
    const smClock = native.deviceGetClockInfo(handle, CLOCK_SM)
    const memClock = native.deviceGetClockInfo(handle, CLOCK_MEM)
    const reasons = this.#readReasons(handle)
    return {
      utilGpuPct: util?.gpu ?? null,
      utilMemoryPct: util?.memory ?? null,
      memUsedBytes: memoryOk?.usedBytes ?? null,
      memFreeBytes: memoryOk?.freeBytes ?? null,
      memTotalBytes: memoryOk?.totalBytes ?? null,
      memReservedBytes: memoryOk?.reservedBytes ?? null,
      powerMw: reader.value('nvmlDeviceGetPowerUsage', index, power.ret, power.value),
      temperatureC: reader.value('nvmlDeviceGetTemperature', index, temperature.ret, temperature.value),
      smClockMhz: reader.value('nvmlDeviceGetClockInfo(SM)', index, smClock.ret, smClock.value),
      memClockMhz: reader.value('nvmlDeviceGetClockInfo(MEM)', index, memClock.ret, memClock.value),
      clockEventReasons: reasons === null ? null : Number(reasons),
    }
  }

  #readReasons(handle: NativeDeviceHandle): bigint | null {
    const call = this.#apis.clockEventReasons
    const reasons =
      call === 'nvmlDeviceGetCurrentClocksEventReasons'
        ? this.native.deviceGetCurrentClocksEventReasons(handle)
        : this.native.deviceGetCurrentClocksThrottleReasons(handle)
    return this.reader.value(call, this.index, reasons.ret, reasons.value)
  }

  // v2 where the driver has it (it reports reserved memory apart from used); an old driver that has the symbol but
  // rejects the struct version moves this device to v1 for good.
  #readMemory(handle: NativeDeviceHandle): MemoryRead {
    if (this.#apis.memory === 'nvmlDeviceGetMemoryInfo_v2') {
      const v2 = this.native.deviceGetMemoryInfoV2(handle)
      if (v2.ret !== NVML_ERROR_ARGUMENT_VERSION_MISMATCH) {
        return {
          ret: v2.ret,
          totalBytes: Number(v2.total),
          usedBytes: Number(v2.used),
          freeBytes: Number(v2.free),
          reservedBytes: Number(v2.reserved),
        }
      }
      this.#apis = { ...this.#apis, memory: 'nvmlDeviceGetMemoryInfo' }
    }
    const v1 = this.native.deviceGetMemoryInfo(handle)
    return {
      ret: v1.ret,
      totalBytes: Number(v1.total),
      usedBytes: Number(v1.used),
      freeBytes: Number(v1.free),
      reservedBytes: null,
    }
  }
}

interface MemoryRead {
  ret: number
  totalBytes: number
  usedBytes: number
  freeBytes: number
  reservedBytes: number | null
}

function retOf<T extends { ret: number }>(result: T): [number, T] {
  return [result.ret, result]
}
