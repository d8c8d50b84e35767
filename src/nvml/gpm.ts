/**
 * GPM (GPU performance monitoring, Hopper and later): how busy the chip really is between two samples — SM activity,
 * tensor pipes, DRAM bandwidth — unlike "utilization", which one tiny kernel drives to 100%. Samples should be more
 * than 100 ms apart. The sampler owns two NVML sample buffers; close() frees them.
 */
import type { NativeGpmSample } from './binding.ts'
import type { NvmlDevice } from './device.ts'
import { NVML_SUCCESS } from './errors.ts'

/** NVML GPM metric ids (nvmlGpmMetricId_t). Utilizations are percent; PCIe rates MiB/s. */
export const GPM_METRICS = {
  graphicsUtilPct: 1,
  smUtilPct: 2,
  smOccupancyPct: 3,
  integerUtilPct: 4,
  anyTensorUtilPct: 5,
  dfmaTensorUtilPct: 6,
  hmmaTensorUtilPct: 7,
  dmmaTensorUtilPct: 8,
  immaTensorUtilPct: 9,
  dramBwUtilPct: 10,
  fp64UtilPct: 11,
  fp32UtilPct: 12,
  fp16UtilPct: 13,
  pcieTxMiBps: 20,
  pcieRxMiBps: 21,
} as const

export type GpmMetricName = keyof typeof GPM_METRICS

/** What the monitor records per tick. */
export const DEFAULT_GPM_METRICS: readonly GpmMetricName[] = ['smUtilPct', 'anyTensorUtilPct', 'dramBwUtilPct']

export type GpmReading =
  | { state: 'first' }
  | { state: 'completed'; intervalMs: number; values: Partial<Record<GpmMetricName, number | null>> }

export type GpmOpenResult = { state: 'ready'; sampler: GpmSampler } | { state: 'unsupported'; reason: string }

/**
 * Whether the device supports GPM: true/false from nvmlGpmQueryDeviceSupport, null when the driver cannot say
 * (function missing or not supported; warned once). @throws NvmlError (GPU lost included)
 */
export function gpmSupported(device: NvmlDevice): boolean | null {
  return device.guard((handle) => {
    const support = device.native.gpmQueryDeviceSupport(handle)
    const value = device.reader.value('nvmlGpmQueryDeviceSupport', device.index, support.ret, support.isSupportedDevice)
    return value === null ? null : value === 1
  })
}

export class GpmSampler {
  readonly #device: NvmlDevice
  readonly #metricNames: readonly GpmMetricName[]
  #previous: NativeGpmSample
  #next: NativeGpmSample
  #previousAtMs: number | null = null
  #closed = false

  private constructor(
    device: NvmlDevice,
    metrics: readonly GpmMetricName[],
    samples: [NativeGpmSample, NativeGpmSample],
  ) {
    this.#device = device
    this.#metricNames = metrics
    ;[this.#previous, this.#next] = samples
  }

  /** Checks support and allocates the two sample buffers. @throws NvmlError for unexpected failures. */
  static open(device: NvmlDevice, metrics: readonly GpmMetricName[] = DEFAULT_GPM_METRICS): GpmOpenResult {
    const supported = gpmSupported(device)
    if (supported !== true) {
      const why = supported === false ? 'reports no GPM support' : 'cannot report GPM support'
      return { state: 'unsupported', reason: `GPU ${device.index} ${why}` }
    }
    const first = device.native.gpmSampleAlloc()
    const firstSample = device.reader.required('nvmlGpmSampleAlloc', device.index, first.ret, first.sample)
    const second = device.native.gpmSampleAlloc()
    if (second.ret !== NVML_SUCCESS || !second.sample) {
      if (firstSample) device.native.gpmSampleFree(firstSample)
      throw device.reader.error('nvmlGpmSampleAlloc', device.index, second.ret)
    }
    return { state: 'ready', sampler: new GpmSampler(device, metrics, [firstSample!, second.sample]) }
  }

  /**
   * Takes a sample; from the second call on, returns the metrics over the time since the previous one.
   * @throws NvmlError (GPU lost included), or Error after close().
   */
  sample(): GpmReading {
    if (this.#closed) throw new Error(`GPM sampler for GPU ${this.#device.index} used after close()`)
    const device = this.#device
    const atMs = performance.now()
    // Checked inside guard() so that GPU_IS_LOST retires the device, as a lost snapshot does.
    device.guard((handle) => {
      const ret = device.native.gpmSampleGet(handle, this.#next)
      device.reader.required('nvmlGpmSampleGet', device.index, ret, null)
    })
    const previousAtMs = this.#previousAtMs
    ;[this.#previous, this.#next] = [this.#next, this.#previous]
    this.#previousAtMs = atMs
    if (previousAtMs === null) return { state: 'first' }
    return {
      state: 'completed',
      intervalMs: atMs - previousAtMs,
      values: this.#metricsBetween(this.#next, this.#previous),
    }
  }

  #metricsBetween(older: NativeGpmSample, newer: NativeGpmSample): Partial<Record<GpmMetricName, number | null>> {
    const device = this.#device
    const ids = this.#metricNames.map((name) => GPM_METRICS[name])
    const result = device.native.gpmMetricsGet(older, newer, ids)
    device.reader.required('nvmlGpmMetricsGet', device.index, result.ret, null)
    const values: Partial<Record<GpmMetricName, number | null>> = {}
    this.#metricNames.forEach((name, i) => {
      const metric = result.metrics[i]
      const call = `nvmlGpmMetricsGet(${name})`
      values[name] = metric ? device.reader.value(call, device.index, metric.ret, metric.value) : null
    })
    return values
  }

  /** Frees both NVML sample buffers; later calls do nothing. */
  close(): void {
    if (this.#closed) return
    this.#closed = true
    this.#device.native.gpmSampleFree(this.#previous)
    this.#device.native.gpmSampleFree(this.#next)
  }

  [Symbol.dispose](): void {
    this.close()
  }
}
