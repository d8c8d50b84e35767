// The raw addon (native/nvml) against the compiled fake: every call, its return codes, and the struct ABI.
import { createRequire } from 'node:module'
import { afterEach, beforeEach, describe, expect, test } from 'vitest'
import type { NativeDeviceHandle, NvmlNative } from '../../src/nvml/binding.ts'
import { buildFakeNvml, createFakeNvml, type FakeNvml, type FakeNvmlScript } from '../support/fake-nvml.ts'
import { ADDON_PATH } from './support/session.ts'

const native = createRequire(import.meta.url)(ADDON_PATH) as NvmlNative

// Distinct sentinels per field, above 2^53 where the field is 64-bit: a read at a neighbour's offset, or a value
// rounded through a double, cannot match.
const SENTINEL = {
  memTotal: 0x0123_4567_89ab_cdefn,
  memReserved: 0x0000_0000_1111_2222n,
  memUsed: 0x0000_0000_3333_4444n,
  energy: 0xfedc_ba98_7654_3210n,
  reasons: 0x8000_0000_0000_0041n,
}

const script: FakeNvmlScript = {
  driverVersion: '580.159.04',
  nvmlVersion: '13.580.159.04',
  devices: [
    {
      name: 'NVIDIA H200',
      uuid: 'GPU-11111111-2222-3333-4444-555555555555',
      busId: '00000000:18:00.0',
      pci: { domain: 0x0102, bus: 0x18, device: 0x03, pciDeviceId: 0x233510de, pciSubSystemId: 0x17cc10de },
      memTotalBytes: SENTINEL.memTotal,
      memReservedBytes: SENTINEL.memReserved,
      memUsedBytes: SENTINEL.memUsed,
      utilGpuPct: 71,
      utilMemoryPct: 13,
      temperatureC: 44,
      powerMw: [120_000, 130_000],
      powerLimitMw: 700_000,
      energyMj: SENTINEL.energy,
      clockGraphicsMhz: 1_755,
      clockSmMhz: 1_980,
      clockMemMhz: 2_619,
      clockEventReasons: SENTINEL.reasons,
      samplesGpu: [
        { timeStampUs: 1_000, valuePct: 10 },
        { timeStampUs: 1_200, valuePct: 20 },
        { timeStampUs: 1_400, valuePct: 30 },
      ],
      processes: [
        { pid: 4_001, usedGpuMemoryBytes: 0x1_0000_0001n, gpuInstanceId: 7, computeInstanceId: 9 },
        { pid: 4_002, usedGpuMemoryBytes: 0x2_0000_0002n, gpuInstanceId: 8, computeInstanceId: 10 },
        { pid: 4_003, usedGpuMemoryBytes: 0x3_0000_0003n, gpuInstanceId: 11, computeInstanceId: 12 },
      ],
      gpm: { 2: 80.5, 5: 78.25 },
    },
  ],
}

let device: NativeDeviceHandle
let fake: FakeNvml

beforeEach(() => {
  fake = createFakeNvml(script)
  fake.activate()
  expect(native.openLibrary(fake.libraryPath)).toEqual({ loaded: true, error: null })
  expect(native.init()).toBe(0)
  const handle = native.deviceGetHandleByIndex(0)
  expect(handle.ret).toBe(0)
  device = handle.handle!
})

afterEach(() => {
  native.shutdown()
  fake.remove()
})

describe('struct layouts', () => {
  // docs/NVML.md, x86-64: size and field offsets.
  test.each([
    ['nvmlUtilization_t', 8, { gpu: 0, memory: 4 }],
    ['nvmlMemory_t', 24, { total: 0, free: 8, used: 16 }],
    ['nvmlMemory_v2_t', 40, { version: 0, total: 8, reserved: 16, free: 24, used: 32 }],
    [
      'nvmlPciInfo_t',
      68,
      { busIdLegacy: 0, domain: 16, bus: 20, device: 24, pciDeviceId: 28, pciSubSystemId: 32, busId: 36 },
    ],
    ['nvmlSample_t', 16, { timeStamp: 0, sampleValue: 8 }],
    ['nvmlProcessInfo_t', 24, { pid: 0, usedGpuMemory: 8, gpuInstanceId: 16, computeInstanceId: 20 }],
    ['nvmlGpmSupport_t', 8, { version: 0, isSupportedDevice: 4 }],
    ['nvmlGpmMetric_t', 40, { metricId: 0, nvmlReturn: 4, value: 8, shortName: 16, longName: 24, unit: 32 }],
    ['nvmlGpmMetricsGet_t', 24 + 40 * 333, { version: 0, numMetrics: 4, sample1: 8, sample2: 16, metrics: 24 }],
  ])('%s is %i bytes with NVML offsets', (name, size, offsets) => {
    expect(native.structLayouts()[name]).toEqual({ size, offsets })
  })

  test('nvmlMemory_v2 carries version 0x02000028', () => {
    expect(native.structLayouts().memoryV2Version).toBe(0x0200_0028)
    expect(native.deviceGetMemoryInfoV2(device).version).toBe(0x0200_0028)
  })
})

describe('system calls', () => {
  test('driver and NVML versions', () => {
    expect(native.systemGetDriverVersion()).toEqual({ ret: 0, value: '580.159.04' })
    expect(native.systemGetNvmlVersion()).toEqual({ ret: 0, value: '13.580.159.04' })
  })

  test('device count and an out-of-range handle', () => {
    expect(native.deviceGetCount()).toEqual({ ret: 0, value: 1 })
    expect(native.deviceGetHandleByIndex(5)).toEqual({ ret: 2, handle: null })
  })

  test('errorString returns NVML text', () => {
    expect(native.errorString(3)).toBe('Not Supported')
    expect(native.errorString(15)).toBe('GPU is lost')
  })

  test('a call before init returns UNINITIALIZED', () => {
    native.shutdown()
    expect(native.deviceGetCount().ret).toBe(1)
    expect(native.init()).toBe(0)
  })
})

describe('device calls read every field at its offset', () => {
  test('name and UUID', () => {
    expect(native.deviceGetName(device)).toEqual({ ret: 0, value: 'NVIDIA H200' })
    expect(native.deviceGetUuid(device)).toEqual({ ret: 0, value: 'GPU-11111111-2222-3333-4444-555555555555' })
  })

  test('PCI info', () => {
    expect(native.deviceGetPciInfo(device)).toEqual({
      ret: 0,
      busIdLegacy: '0102:18:03.0',
      domain: 0x0102,
      bus: 0x18,
      device: 0x03,
      pciDeviceId: 0x233510de,
      pciSubSystemId: 0x17cc10de,
      busId: '00000000:18:00.0',
    })
  })

  test('memory v2', () => {
    const free = SENTINEL.memTotal - SENTINEL.memReserved - SENTINEL.memUsed
    expect(native.deviceGetMemoryInfoV2(device)).toEqual({
      ret: 0,
      version: 0x0200_0028,
      total: SENTINEL.memTotal,
      reserved: SENTINEL.memReserved,
      free,
      used: SENTINEL.memUsed,
    })
  })

  test('memory v1 (reserved counted as used)', () => {
    const used = SENTINEL.memReserved + SENTINEL.memUsed
    expect(native.deviceGetMemoryInfo(device)).toEqual({
      ret: 0,
      total: SENTINEL.memTotal,
      free: SENTINEL.memTotal - used,
      used,
    })
  })

  test('utilization, temperature, power limit, clocks', () => {
    expect(native.deviceGetUtilizationRates(device)).toEqual({ ret: 0, gpu: 71, memory: 13 })
    expect(native.deviceGetTemperature(device, 0)).toEqual({ ret: 0, value: 44 })
    expect(native.deviceGetEnforcedPowerLimit(device)).toEqual({ ret: 0, value: 700_000 })
    expect([0, 1, 2].map((type) => native.deviceGetClockInfo(device, type).value)).toEqual([1_755, 1_980, 2_619])
  })

  test('power changes between reads as scripted', () => {
    expect([1, 2, 3].map(() => native.deviceGetPowerUsage(device).value)).toEqual([120_000, 130_000, 120_000])
  })

  test('64-bit energy and clock-event reasons arrive exact, as bigint', () => {
    expect(native.deviceGetTotalEnergyConsumption(device)).toEqual({ ret: 0, value: SENTINEL.energy })
    expect(native.deviceGetCurrentClocksEventReasons(device)).toEqual({ ret: 0, value: SENTINEL.reasons })
    expect(native.deviceGetCurrentClocksThrottleReasons(device)).toEqual({ ret: 0, value: SENTINEL.reasons })
  })

  test('an invalid enum argument comes back as NVML INVALID_ARGUMENT', () => {
    expect(native.deviceGetTemperature(device, 7).ret).toBe(2)
  })
})

describe('list calls', () => {
  test('processes: capacity 0 asks for the count (INSUFFICIENT_SIZE)', () => {
    expect(native.deviceGetComputeRunningProcesses(device, 0)).toEqual({ ret: 7, count: 3, processes: [] })
  })

  test('processes: the v3 entries (24 bytes) read pid, memory and instance ids', () => {
    expect(native.deviceGetComputeRunningProcesses(device, 3).processes).toEqual([
      { pid: 4_001, usedGpuMemory: 0x1_0000_0001n, gpuInstanceId: 7, computeInstanceId: 9 },
      { pid: 4_002, usedGpuMemory: 0x2_0000_0002n, gpuInstanceId: 8, computeInstanceId: 10 },
      { pid: 4_003, usedGpuMemory: 0x3_0000_0003n, gpuInstanceId: 11, computeInstanceId: 12 },
    ])
  })

  test('samples: count first, then the samples newer than lastSeen, as unsigned ints', () => {
    expect(native.deviceGetSamples(device, 1, 1_000n, 0)).toMatchObject({ ret: 0, count: 2, samples: [] })
    expect(native.deviceGetSamples(device, 1, 1_000n, 2)).toEqual({
      ret: 0,
      valueType: 1,
      count: 2,
      samples: [
        { timeStamp: 1_200n, value: 20 },
        { timeStamp: 1_400n, value: 30 },
      ],
    })
  })

  test('samples: nothing newer is NOT_FOUND, a short buffer INSUFFICIENT_SIZE', () => {
    expect(native.deviceGetSamples(device, 1, 1_400n, 4).ret).toBe(6)
    expect(native.deviceGetSamples(device, 1, 0n, 1)).toMatchObject({ ret: 7, count: 3 })
  })
})

describe('GPM calls', () => {
  test('support query', () => {
    expect(native.gpmQueryDeviceSupport(device)).toEqual({ ret: 0, version: 1, isSupportedDevice: 1 })
  })

  test('alloc, get twice, metrics, free', () => {
    const first = native.gpmSampleAlloc().sample!
    const second = native.gpmSampleAlloc().sample!
    expect(native.gpmSampleGet(device, first)).toBe(0)
    expect(native.gpmSampleGet(device, second)).toBe(0)
    const result = native.gpmMetricsGet(first, second, [2, 5, 10])
    expect(result.ret).toBe(0)
    expect(result.metrics.map((m) => [m.metricId, m.ret, m.value, m.shortName, m.unit])).toEqual([
      [2, 0, 80.5, 'sm_util', '%'],
      [5, 0, 78.25, 'any_tensor_util', '%'],
      [10, 3, 0, null, null],
    ])
    expect([native.gpmSampleFree(first), native.gpmSampleFree(second)]).toEqual([0, 0])
  })

  test('a freed sample is refused, not passed to NVML again', () => {
    const sample = native.gpmSampleAlloc().sample!
    expect(native.gpmSampleFree(sample)).toBe(0)
    expect(native.gpmSampleFree(sample)).toBe(2)
    expect(native.gpmSampleGet(device, sample)).toBe(2)
  })
})

describe('argument checks', () => {
  test('a non-handle is a TypeError naming the argument', () => {
    expect(() => native.deviceGetPowerUsage({} as NativeDeviceHandle)).toThrow(TypeError)
    expect(() => native.deviceGetPowerUsage({} as NativeDeviceHandle)).toThrow(/argument 0 must be a device handle/)
  })

  test('a GPM sample is not accepted as a device handle', () => {
    const sample = native.gpmSampleAlloc().sample!
    expect(() => native.deviceGetPowerUsage(sample as unknown as NativeDeviceHandle)).toThrow(TypeError)
    native.gpmSampleFree(sample)
  })

  test('a negative or fractional index is a TypeError', () => {
    expect(() => native.deviceGetHandleByIndex(-1)).toThrow(/integer in \[0, 2\^32\)/)
    expect(() => native.deviceGetHandleByIndex(0.5)).toThrow(TypeError)
  })
})

describe('library and symbols', () => {
  test('a missing library reports the dlopen error and keeps the current one', () => {
    const opened = native.openLibrary('/nonexistent/libnvidia-ml.so.1')
    expect(opened.loaded).toBe(false)
    expect(opened.error).toMatch(/nonexistent.*No such file/)
    expect(native.deviceGetCount().ret).toBe(0)
  })

  test('symbols are resolved by their versioned names', () => {
    const symbols = native.librarySymbols()!
    expect(symbols.nvmlInit_v2).toBe(true)
    expect(symbols.nvmlDeviceGetComputeRunningProcesses_v3).toBe(true)
    expect(Object.keys(symbols)).not.toContain('nvmlInit')
    expect(Object.keys(symbols)).not.toContain('nvmlDeviceGetComputeRunningProcesses')
  })

  test('a symbol the library lacks answers FUNCTION_NOT_FOUND instead of crashing', () => {
    native.shutdown()
    using older = createFakeNvml(script, { omit: ['MEMORY_V2', 'GPM', 'PROCESSES_V3', 'CLOCKS_EVENT', 'SAMPLES'] })
    older.activate()
    expect(native.openLibrary(older.libraryPath).loaded).toBe(true)
    expect(native.init()).toBe(0)
    const handle = native.deviceGetHandleByIndex(0).handle!
    expect(native.librarySymbols()!.nvmlDeviceGetMemoryInfo_v2).toBe(false)
    expect(native.deviceGetMemoryInfoV2(handle).ret).toBe(13)
    expect(native.deviceGetComputeRunningProcesses(handle, 4).ret).toBe(13)
    expect(native.deviceGetCurrentClocksEventReasons(handle).ret).toBe(13)
    expect(native.deviceGetSamples(handle, 1, 0n, 4).ret).toBe(13)
    expect(native.gpmSampleAlloc()).toEqual({ ret: 13, sample: null })
    expect(native.deviceGetMemoryInfo(handle).ret).toBe(0)
    native.shutdown()
    expect(native.openLibrary(buildFakeNvml()).loaded).toBe(true)
    expect(native.init()).toBe(0)
  })
})
