/**
 * Turns NVML return codes into values, the nvitop way: a metric this GPU or driver cannot give ("not supported",
 * "function not found", "no permission") is `null` with one warning per device and call; anything else is an NvmlError.
 */
import type { NvmlNative } from './binding.ts'
import {
  NVML_ERROR_FUNCTION_NOT_FOUND,
  NVML_ERROR_NO_PERMISSION,
  NVML_ERROR_NOT_SUPPORTED,
  NVML_SUCCESS,
  NvmlError,
  nvmlCodeName,
} from './errors.ts'

/** Where one-time warnings go; console.warn unless the caller passes its own sink. */
export type WarnFn = (message: string) => void

const ABSENT_CODES: ReadonlySet<number> = new Set([
  NVML_ERROR_NOT_SUPPORTED,
  NVML_ERROR_FUNCTION_NOT_FOUND,
  NVML_ERROR_NO_PERMISSION,
])

export class MetricReader {
  readonly #native: NvmlNative
  readonly #warn: WarnFn
  readonly #warned = new Set<string>()

  constructor(native: NvmlNative, warn: WarnFn = console.warn) {
    this.#native = native
    this.#warn = warn
  }

  /**
   * `value` when `ret` is NVML_SUCCESS; null (warned once) when the metric is absent here.
   * @throws NvmlError for every other return code (GPU lost included: the device decides what that means).
   */
  value<T>(call: string, deviceIndex: number | undefined, ret: number, value: T): T | null {
    if (ret === NVML_SUCCESS) return value
    if (ABSENT_CODES.has(ret)) {
      this.warnOnce(call, deviceIndex, ret)
      return null
    }
    throw this.error(call, deviceIndex, ret)
  }

  /** `value` when `ret` is NVML_SUCCESS. @throws NvmlError otherwise. */
  required<T>(call: string, deviceIndex: number | undefined, ret: number, value: T): T {
    if (ret === NVML_SUCCESS) return value
    throw this.error(call, deviceIndex, ret)
  }

  error(call: string, deviceIndex: number | undefined, ret: number): NvmlError {
    return new NvmlError(ret, { call, deviceIndex, nvmlMessage: this.#native.errorString(ret) })
  }

  warnOnce(call: string, deviceIndex: number | undefined, ret: number): void {
    const key = `${deviceIndex ?? '-'}:${call}`
    if (this.#warned.has(key)) return
    this.#warned.add(key)
    const where = deviceIndex === undefined ? '' : ` on GPU ${deviceIndex}`
    this.#warn(`nvml: ${call}${where} returned ${nvmlCodeName(ret)}; reading it as null from now on`)
  }
}
