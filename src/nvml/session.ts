/**
 * An initialised NVML: `openNvml()` loads the addon and library (load.ts), calls nvmlInit_v2 and hands back a session
 * that lists devices; `close()` calls nvmlShutdown once. NVML ref-counts init, so sessions in several workers coexist.
 */
import { NvmlDevice } from './device.ts'
import { NVML_ERROR_GPU_IS_LOST, NVML_SUCCESS, nvmlCodeName } from './errors.ts'
import { loadNvml, type NvmlLoaded, type NvmlLoadOptions, type NvmlUnavailable } from './load.ts'
import { MetricReader, type WarnFn } from './reader.ts'

export interface OpenNvmlOptions extends NvmlLoadOptions {
  /** Where one-time "metric not supported" warnings go; console.warn by default. */
  warn?: WarnFn
}

/** What run metadata records about the binding (nvitop's "probe once, record the choice"). */
export interface NvmlBindingInfo {
  addonPath: string
  libraryPath: string
  /** NVML symbols this library lacks, by exact name. */
  missingSymbols: string[]
}

export class NvmlSession {
  readonly #loaded: NvmlLoaded
  readonly #reader: MetricReader
  #open = true
  #devices: NvmlDevice[] | null = null

  constructor(loaded: NvmlLoaded, warn?: WarnFn) {
    this.#loaded = loaded
    this.#reader = new MetricReader(loaded.native, warn)
  }

  get bindingInfo(): NvmlBindingInfo {
    const missingSymbols = Object.entries(this.#loaded.symbols)
      .filter(([, found]) => !found)
      .map(([name]) => name)
    return { addonPath: this.#loaded.addonPath, libraryPath: this.#loaded.libraryPath, missingSymbols }
  }

  /** e.g. `580.159.04`. @throws NvmlError */
  driverVersion(): string {
    const result = this.#loaded.native.systemGetDriverVersion()
    return this.#reader.required('nvmlSystemGetDriverVersion', undefined, result.ret, result.value)
  }

  /** e.g. `13.580.159.04`. @throws NvmlError */
  nvmlVersion(): string {
    const result = this.#loaded.native.systemGetNvmlVersion()
    return this.#reader.required('nvmlSystemGetNVMLVersion', undefined, result.ret, result.value)
  }

  /** @throws NvmlError */
  deviceCount(): number {
    const result = this.#loaded.native.deviceGetCount()
    return this.#reader.required('nvmlDeviceGetCount_v2', undefined, result.ret, result.value)
  }

  /**
   * Every device by NVML index, handles fetched once and kept. A GPU already lost is listed, marked lost.
   * @throws NvmlError for other handle failures.
   */
  listDevices(): NvmlDevice[] {
    if (this.#devices) return this.#devices
    const { native, symbols } = this.#loaded
    const devices: NvmlDevice[] = []
    for (let index = 0; index < this.deviceCount(); index++) {
      const result = native.deviceGetHandleByIndex(index)
      const call = 'nvmlDeviceGetHandleByIndex_v2'
      if (result.ret === NVML_ERROR_GPU_IS_LOST) {
        const lostError = this.#reader.error(call, index, result.ret)
        devices.push(new NvmlDevice({ native, reader: this.#reader, index, handle: null, symbols, lostError }))
        continue
      }
      const handle = this.#reader.required(call, index, result.ret, result.handle)
      devices.push(new NvmlDevice({ native, reader: this.#reader, index, handle, symbols }))
    }
    this.#devices = devices
    return devices
  }

  /** Calls nvmlShutdown once; later calls do nothing. Devices of this session must not be used afterwards. */
  close(): void {
    if (!this.#open) return
    this.#open = false
    this.#loaded.native.shutdown()
  }

  [Symbol.dispose](): void {
    this.close()
  }
}

export type OpenNvmlResult = { available: true; session: NvmlSession } | NvmlUnavailable

/** Loads and initialises NVML. "No driver", "no library", "addon not built" come back as `available: false`. */
export function openNvml(options: OpenNvmlOptions = {}): OpenNvmlResult {
  const loaded = loadNvml(options)
  if (!loaded.available) return loaded
  const ret = loaded.native.init()
  if (ret !== NVML_SUCCESS) {
    const text = loaded.native.errorString(ret)
    return {
      available: false,
      reason: `nvmlInit_v2 returned ${nvmlCodeName(ret)}${text ? ` (${text})` : ''} from ${loaded.libraryPath}`,
    }
  }
  return { available: true, session: new NvmlSession(loaded, options.warn) }
}
