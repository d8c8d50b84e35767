/**
 * The calibration of NVMLDevice.snapshot(): the same seven NVML reads through the addon's raw calls (utilization,
 * memory v2, power, temperature, SM and memory clocks, clock-event reasons), summed, with none of the TypeScript layer
 * (return-code checks, warnings, lost-GPU guard, the readings object). Both arms cross into the same C++ addon and
 * the same fake library, so the ratio judges the binding's own TypeScript cost; the absolute figure beside it is the
 * whole cost.
 */
import type { NativeDeviceHandle, NvmlNative } from '../../../src/nvml/binding.ts'

const TEMPERATURE_GPU = 0
const CLOCK_SM = 1
const CLOCK_MEM = 2

export interface RawReadings {
  utilPct: number
  utilMemoryPct: number
  memUsedBytes: number
  memTotalBytes: number
  powerMw: number
  tempC: number
  smClockMhz: number
  memClockMhz: number
  clockEventReasons: number
}

/** One round of the seven raw reads, as plain fields (return codes not looked at). */
export function rawReadings(native: NvmlNative, handle: NativeDeviceHandle): RawReadings {
  const util = native.deviceGetUtilizationRates(handle)
  const memory = native.deviceGetMemoryInfoV2(handle)
  return {
    utilPct: util.gpu,
    utilMemoryPct: util.memory,
    memUsedBytes: Number(memory.used),
    memTotalBytes: Number(memory.total),
    powerMw: native.deviceGetPowerUsage(handle).value,
    tempC: native.deviceGetTemperature(handle, TEMPERATURE_GPU).value,
    smClockMhz: native.deviceGetClockInfo(handle, CLOCK_SM).value,
    memClockMhz: native.deviceGetClockInfo(handle, CLOCK_MEM).value,
    clockEventReasons: Number(native.deviceGetCurrentClocksEventReasons(handle).value),
  }
}

/** The handle of GPU `index` from the raw calls. @throws Error when NVML has no such device */
export function rawHandle(native: NvmlNative, index: number): NativeDeviceHandle {
  const { ret, handle } = native.deviceGetHandleByIndex(index)
  if (ret !== 0 || !handle) throw new Error(`nvmlDeviceGetHandleByIndex_v2(${index}) returned ${ret}`)
  return handle
}
