/**
 * One tick's reading of one GPU as monitor records. The fast path is the NVML layer's snapshot(); when that throws
 * for an unexpected return code on one metric, each metric is read on its own so that one failing call costs only
 * its own field (null) plus an error record, not the whole sample.
 */
import type { NativeDeviceHandle, NvmlNative } from '../nvml/binding.ts'
import type { DeviceReadings, NvmlDevice } from '../nvml/device.ts'
import { isNvmlError } from '../nvml/errors.ts'
import type { ErrorRecord, GpuLostRecord, SampleRecord } from './records.ts'

export type DeviceRead =
  | { state: 'ok'; sample: SampleRecord; errors: ErrorRecord[] }
  | { state: 'lost'; record: GpuLostRecord }

type Reading = Omit<DeviceReadings, 'memFreeBytes' | 'memReservedBytes'>

/** Reads `device` once; never throws. `tMs` is the sample's time, `stage` its stamp (may be fixed later). */
export function readDevice(device: NvmlDevice, tMs: number, stage: string | null): DeviceRead {
  let readings: Reading
  let errors: ErrorRecord[] = []
  try {
    const snapshot = device.snapshot()
    if (snapshot.state === 'lost') return lost(device.index, tMs, snapshot.error)
    readings = snapshot
  } catch {
    if (device.lost) return lost(device.index, tMs, device.lost)
    ;({ readings, errors } = readOneByOne(device, tMs))
    if (device.lost) return lost(device.index, tMs, device.lost)
  }
  return { state: 'ok', sample: toSample(device.index, tMs, stage, readings), errors }
}

function lost(gpu: number, tMs: number, error: Error): DeviceRead {
  return { state: 'lost', record: { kind: 'gpu-lost', tMs, gpu, error: error.message } }
}

function toSample(gpu: number, tMs: number, stage: string | null, r: Reading): SampleRecord {
  return {
    kind: 'sample',
    tMs,
    gpu,
    stage,
    utilPct: r.utilGpuPct,
    utilMemoryPct: r.utilMemoryPct,
    memUsedBytes: r.memUsedBytes,
    memTotalBytes: r.memTotalBytes,
    powerMw: r.powerMw,
    tempC: r.temperatureC,
    smClockMhz: r.smClockMhz,
    memClockMhz: r.memClockMhz,
    clockEventReasons: r.clockEventReasons,
  }
}

type Read = (native: NvmlNative, handle: NativeDeviceHandle) => { ret: number; fields: Partial<Reading> }

const scalar = (result: { ret: number; value: number | bigint }, field: keyof Reading) => ({
  ret: result.ret,
  fields: { [field]: Number(result.value) },
})

// The per-metric fallback: the same calls snapshot() makes, each on its own. Memory uses the v1 call, which every
// driver has (it counts reserved memory as used).
const METRICS: ReadonlyArray<[string, Read]> = [
  [
    'nvmlDeviceGetUtilizationRates',
    (n, h) => {
      const u = n.deviceGetUtilizationRates(h)
      return { ret: u.ret, fields: { utilGpuPct: u.gpu, utilMemoryPct: u.memory } }
    },
  ],
  [
    'nvmlDeviceGetMemoryInfo',
    (n, h) => {
      const m = n.deviceGetMemoryInfo(h)
      return { ret: m.ret, fields: { memUsedBytes: Number(m.used), memTotalBytes: Number(m.total) } }
    },
  ],
  ['nvmlDeviceGetPowerUsage', (n, h) => scalar(n.deviceGetPowerUsage(h), 'powerMw')],
  ['nvmlDeviceGetTemperature', (n, h) => scalar(n.deviceGetTemperature(h, 0), 'temperatureC')],
  ['nvmlDeviceGetClockInfo(SM)', (n, h) => scalar(n.deviceGetClockInfo(h, 1), 'smClockMhz')],
  ['nvmlDeviceGetClockInfo(MEM)', (n, h) => scalar(n.deviceGetClockInfo(h, 2), 'memClockMhz')],
  ['nvmlDeviceGetCurrentClocksEventReasons', (n, h) => scalar(readReasons(n, h), 'clockEventReasons')],
]

const NVML_ERROR_FUNCTION_NOT_FOUND = 13

function readReasons(n: NvmlNative, h: NativeDeviceHandle) {
  const reasons = n.deviceGetCurrentClocksEventReasons(h)
  return reasons.ret === NVML_ERROR_FUNCTION_NOT_FOUND ? n.deviceGetCurrentClocksThrottleReasons(h) : reasons
}

function readOneByOne(device: NvmlDevice, tMs: number): { readings: Reading; errors: ErrorRecord[] } {
  const readings: Reading = {
    utilGpuPct: null,
    utilMemoryPct: null,
    memUsedBytes: null,
    memTotalBytes: null,
    powerMw: null,
    temperatureC: null,
    smClockMhz: null,
    memClockMhz: null,
    clockEventReasons: null,
  }
  const errors: ErrorRecord[] = []
  for (const [call, read] of METRICS) {
    try {
      // Inside guard(), so that GPU_IS_LOST retires the device as it would in snapshot().
      const fields = device.guard((handle) => {
        const result = read(device.native, handle)
        return device.reader.value(call, device.index, result.ret, result.fields)
      })
      if (fields) Object.assign(readings, fields)
    } catch (error) {
      if (isNvmlError(error, 'NVML_ERROR_GPU_IS_LOST')) break
      errors.push({ kind: 'error', tMs, gpu: device.index, metric: call, error: (error as Error).message })
    }
  }
  return { readings, errors }
}
