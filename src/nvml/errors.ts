/**
 * NVML return codes as strings, and the one error class for NVML failures. The native layer hands back NVML's
 * numeric return code; everything above it speaks `NvmlError.code` (`'NVML_ERROR_NOT_SUPPORTED'`, ...).
 */
import { CodedError } from '../platform/coded-error.ts'

/** nvmlReturn_t values (nvml.h, API 13). Codes not listed read as `NVML_ERROR_UNKNOWN_<n>`. */
export const NVML_RETURN_CODES: ReadonlyMap<number, string> = new Map([
  [0, 'NVML_SUCCESS'],
  [1, 'NVML_ERROR_UNINITIALIZED'],
  [2, 'NVML_ERROR_INVALID_ARGUMENT'],
  [3, 'NVML_ERROR_NOT_SUPPORTED'],
  [4, 'NVML_ERROR_NO_PERMISSION'],
  [5, 'NVML_ERROR_ALREADY_INITIALIZED'],
  [6, 'NVML_ERROR_NOT_FOUND'],
  [7, 'NVML_ERROR_INSUFFICIENT_SIZE'],
  [8, 'NVML_ERROR_INSUFFICIENT_POWER'],
  [9, 'NVML_ERROR_DRIVER_NOT_LOADED'],
  [10, 'NVML_ERROR_TIMEOUT'],
  [11, 'NVML_ERROR_IRQ_ISSUE'],
  [12, 'NVML_ERROR_LIBRARY_NOT_FOUND'],
  [13, 'NVML_ERROR_FUNCTION_NOT_FOUND'],
  [14, 'NVML_ERROR_CORRUPTED_INFOROM'],
  [15, 'NVML_ERROR_GPU_IS_LOST'],
  [16, 'NVML_ERROR_RESET_REQUIRED'],
  [17, 'NVML_ERROR_OPERATING_SYSTEM'],
  [18, 'NVML_ERROR_LIB_RM_VERSION_MISMATCH'],
  [19, 'NVML_ERROR_IN_USE'],
  [20, 'NVML_ERROR_MEMORY'],
  [21, 'NVML_ERROR_NO_DATA'],
  [22, 'NVML_ERROR_VGPU_ECC_NOT_SUPPORTED'],
  [23, 'NVML_ERROR_INSUFFICIENT_RESOURCES'],
  [24, 'NVML_ERROR_FREQ_NOT_SUPPORTED'],
  [25, 'NVML_ERROR_ARGUMENT_VERSION_MISMATCH'],
  [26, 'NVML_ERROR_DEPRECATED'],
  [27, 'NVML_ERROR_NOT_READY'],
  [28, 'NVML_ERROR_GPU_NOT_FOUND'],
  [29, 'NVML_ERROR_INVALID_STATE'],
  [30, 'NVML_ERROR_RESET_TYPE_NOT_SUPPORTED'],
  [999, 'NVML_ERROR_UNKNOWN'],
])

export const NVML_SUCCESS = 0
export const NVML_ERROR_NOT_SUPPORTED = 3
export const NVML_ERROR_NO_PERMISSION = 4
export const NVML_ERROR_NOT_FOUND = 6
export const NVML_ERROR_INSUFFICIENT_SIZE = 7
export const NVML_ERROR_DRIVER_NOT_LOADED = 9
export const NVML_ERROR_LIBRARY_NOT_FOUND = 12
export const NVML_ERROR_FUNCTION_NOT_FOUND = 13
export const NVML_ERROR_GPU_IS_LOST = 15
export const NVML_ERROR_ARGUMENT_VERSION_MISMATCH = 25

/** The string name of an NVML return code; unlisted codes become `NVML_ERROR_UNKNOWN_<n>`. */
export function nvmlCodeName(ret: number): string {
  return NVML_RETURN_CODES.get(ret) ?? `NVML_ERROR_UNKNOWN_${ret}`
}

export interface NvmlErrorOptions {
  /** The NVML function that answered, e.g. `nvmlDeviceGetPowerUsage`. */
  call: string
  /** The device index the call was about, if any. */
  deviceIndex?: number
  /** NVML's own text (`nvmlErrorString`), when the library could be asked. */
  nvmlMessage?: string | null
  cause?: unknown
}

/** An NVML call that returned something other than NVML_SUCCESS. */
/** `code`: `NVML_ERROR_NOT_SUPPORTED`, ..., or `NVML_ERROR_UNKNOWN_<n>` for codes this binding does not know. */
export class NvmlError extends CodedError<string> {
  override readonly name = 'NvmlError'
  /** The numeric nvmlReturn_t. */
  readonly ret: number
  readonly call: string
  readonly deviceIndex: number | undefined
  /** NVML's own message for the code, or null when the library could not be asked. */
  readonly nvmlMessage: string | null

  constructor(ret: number, options: NvmlErrorOptions) {
    const code = nvmlCodeName(ret)
    const where = options.deviceIndex === undefined ? '' : ` (device ${options.deviceIndex})`
    const text = options.nvmlMessage ? `: ${options.nvmlMessage}` : ''
    super(code, `${options.call}${where} returned ${code}${text}`, { cause: options.cause })
    this.ret = ret
    this.call = options.call
    this.deviceIndex = options.deviceIndex
    this.nvmlMessage = options.nvmlMessage ?? null
  }
}

/** True for NvmlError instances, and when `code` is given, only for that code. */
export function isNvmlError(value: unknown, code?: string): value is NvmlError {
  return value instanceof NvmlError && (code === undefined || value.code === code)
}
