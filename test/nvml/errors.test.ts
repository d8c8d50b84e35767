import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { isNvmlError, NVML_RETURN_CODES, NvmlError, nvmlCodeName } from '../../src/nvml/errors.ts'

describe('nvmlCodeName', () => {
  test('names the codes the binding acts on', () => {
    expect(nvmlCodeName(3)).toBe('NVML_ERROR_NOT_SUPPORTED')
    expect(nvmlCodeName(9)).toBe('NVML_ERROR_DRIVER_NOT_LOADED')
    expect(nvmlCodeName(13)).toBe('NVML_ERROR_FUNCTION_NOT_FOUND')
    expect(nvmlCodeName(15)).toBe('NVML_ERROR_GPU_IS_LOST')
    expect(nvmlCodeName(999)).toBe('NVML_ERROR_UNKNOWN')
  })

  test('any code outside the table reads NVML_ERROR_UNKNOWN_<n>', () => {
    fc.assert(
      fc.property(
        fc.integer().filter((n) => !NVML_RETURN_CODES.has(n)),
        (n) => nvmlCodeName(n) === `NVML_ERROR_UNKNOWN_${n}`,
      ),
    )
  })

  test('every known code maps to a distinct NVML_ name', () => {
    const names = [...NVML_RETURN_CODES.values()]
    expect(new Set(names).size).toBe(names.length)
    expect(names.every((name) => name.startsWith('NVML_'))).toBe(true)
  })
})

describe('NvmlError', () => {
  test('carries the string code, the call, the device, NVML message and cause', () => {
    const cause = new Error('inner')
    const error = new NvmlError(15, {
      call: 'nvmlDeviceGetPowerUsage',
      deviceIndex: 1,
      nvmlMessage: 'GPU is lost',
      cause,
    })
    expect(error.code).toBe('NVML_ERROR_GPU_IS_LOST')
    expect(error.ret).toBe(15)
    expect(error.message).toBe('nvmlDeviceGetPowerUsage (device 1) returned NVML_ERROR_GPU_IS_LOST: GPU is lost')
    expect(error.nvmlMessage).toBe('GPU is lost')
    expect(error.cause).toBe(cause)
  })

  test('isNvmlError filters by code and rejects other errors', () => {
    const error = new NvmlError(3, { call: 'x' })
    expect(isNvmlError(error)).toBe(true)
    expect(isNvmlError(error, 'NVML_ERROR_NOT_SUPPORTED')).toBe(true)
    expect(isNvmlError(error, 'NVML_ERROR_GPU_IS_LOST')).toBe(false)
    expect(isNvmlError(new Error('NVML_ERROR_NOT_SUPPORTED'))).toBe(false)
  })
})
