// The typed device API over the real addon and the fake library.
import { describe, expect, test } from 'vitest'
import type { FakeDevice } from '../support/fake-nvml.ts'
import { collectWarnings, openSession, useFake } from './support/session.ts'

const h200: FakeDevice = {
  name: 'NVIDIA H200',
  uuid: 'GPU-aaaaaaaa-bbbb-cccc-dddd-eeeeeeeeeeee',
  busId: '00000000:18:00.0',
  memTotalBytes: 150_754_820_096,
  memReservedBytes: 592_445_440,
  memUsedBytes: [1_000_000_000, 2_000_000_000],
  utilGpuPct: [0, 100],
  utilMemoryPct: 15,
  temperatureC: 41,
  powerMw: 120_500,
  clockSmMhz: 1_980,
  clockMemMhz: 3_201,
  clockEventReasons: 0x4,
  energyMj: 123_456_789,
  powerLimitMw: 700_000,
}

function firstDevice(warn?: (message: string) => void) {
  const device = openSession(warn ? { warn } : {}).listDevices()[0]
  if (!device) throw new Error('fake scripted without a device')
  return device
}

describe('listDevices and identity', () => {
  test('lists every scripted device by index with its identity', () => {
    useFake({ devices: [h200, { name: 'NVIDIA H200 #2' }] })
    const devices = openSession().listDevices()
    expect(devices.map((device) => device.identity())).toEqual([
      { index: 0, name: 'NVIDIA H200', uuid: h200.uuid, pciBusId: '00000000:18:00.0', memTotalBytes: 150_754_820_096 },
      expect.objectContaining({ index: 1, name: 'NVIDIA H200 #2' }),
    ])
  })

  test('driver and NVML versions come from the library', () => {
    useFake({ driverVersion: '580.159.04', nvmlVersion: '13.580.159.04', devices: [] })
    const session = openSession()
    expect([session.driverVersion(), session.nvmlVersion(), session.deviceCount()]).toEqual([
      '580.159.04',
      '13.580.159.04',
      0,
    ])
  })
})

describe('snapshot', () => {
  test('reads every fast metric once, with units in the names', () => {
    useFake({ devices: [h200] })
    const snapshot = firstDevice().snapshot()
    expect(snapshot).toMatchObject({
      state: 'ok',
      index: 0,
      utilGpuPct: 0,
      utilMemoryPct: 15,
      memUsedBytes: 1_000_000_000,
      memFreeBytes: 150_754_820_096 - 592_445_440 - 1_000_000_000,
      memTotalBytes: 150_754_820_096,
      memReservedBytes: 592_445_440,
      powerMw: 120_500,
      temperatureC: 41,
      smClockMhz: 1_980,
      memClockMhz: 3_201,
      clockEventReasons: 0x4,
    })
  })

  test('calls each NVML function exactly once and never reads energy', () => {
    const fake = useFake({ devices: [h200] })
    const session = openSession()
    session.listDevices()[0]!.snapshot()
    session.close()
    const calls = fake.stats().calls
    expect(calls).toMatchObject({
      nvmlDeviceGetUtilizationRates: 1,
      nvmlDeviceGetMemoryInfo_v2: 1,
      nvmlDeviceGetPowerUsage: 1,
      nvmlDeviceGetTemperature: 1,
      nvmlDeviceGetClockInfo: 2,
      nvmlDeviceGetCurrentClocksEventReasons: 1,
      nvmlDeviceGetTotalEnergyConsumption: 0,
      nvmlDeviceGetMemoryInfo: 0,
    })
  })

  test('values change between snapshots as the driver reports them', () => {
    useFake({ devices: [h200] })
    const device = firstDevice()
    const [first, second] = [device.snapshot(), device.snapshot()]
    expect([first.state === 'ok' && first.utilGpuPct, second.state === 'ok' && second.utilGpuPct]).toEqual([0, 100])
    expect(second.state === 'ok' && second.memUsedBytes).toBe(2_000_000_000)
  })

  test('a not-supported metric is null, warned once however often it is read', () => {
    useFake({ devices: [{ ...h200, fail: { nvmlDeviceGetPowerUsage: 3 } }] })
    const { warn, messages } = collectWarnings()
    const device = firstDevice(warn)
    const snapshots = [device.snapshot(), device.snapshot(), device.snapshot()]
    expect(snapshots.map((s) => s.state === 'ok' && s.powerMw)).toEqual([null, null, null])
    expect(snapshots[0]).toMatchObject({ temperatureC: 41 })
    expect(messages).toEqual([
      'nvml: nvmlDeviceGetPowerUsage on GPU 0 returned NVML_ERROR_NOT_SUPPORTED; reading it as null from now on',
    ])
  })

  test('GPU lost mid-run marks the device lost; later snapshots do not call NVML', () => {
    const fake = useFake({ devices: [{ ...h200, lostAfterCalls: 8 }] })
    const session = openSession()
    const device = session.listDevices()[0]!
    expect(device.snapshot().state).toBe('ok')
    const lost = device.snapshot()
    expect(lost).toMatchObject({ state: 'lost', error: { code: 'NVML_ERROR_GPU_IS_LOST', nvmlMessage: 'GPU is lost' } })
    expect(device.lost?.code).toBe('NVML_ERROR_GPU_IS_LOST')
    device.snapshot()
    session.close()
    expect(fake.stats().calls.nvmlDeviceGetUtilizationRates).toBe(2)
  })

  test('a GPU already lost at listing is listed, marked lost', () => {
    useFake({ devices: [{ ...h200, lostAfterCalls: 0 }] })
    const device = firstDevice()
    expect(device.lost?.code).toBe('NVML_ERROR_GPU_IS_LOST')
    expect(device.snapshot().state).toBe('lost')
    expect(() => device.identity()).toThrow(/GPU_IS_LOST/)
  })

  test('an unexpected return code throws an NvmlError naming the call and device', () => {
    useFake({ devices: [{ ...h200, fail: { nvmlDeviceGetTemperature: 999 } }] })
    expect(() => firstDevice().snapshot()).toThrow('nvmlDeviceGetTemperature (device 0) returned NVML_ERROR_UNKNOWN')
  })
})

describe('older drivers', () => {
  test('without the _v2 memory and clocks-event symbols it falls back to v1 and the throttle name', () => {
    useFake({ devices: [h200] }, { omit: ['MEMORY_V2', 'CLOCKS_EVENT'] })
    const device = firstDevice()
    expect(device.apis).toEqual({
      memory: 'nvmlDeviceGetMemoryInfo',
      clockEventReasons: 'nvmlDeviceGetCurrentClocksThrottleReasons',
    })
    expect(device.snapshot()).toMatchObject({
      memUsedBytes: 1_592_445_440,
      memReservedBytes: null,
      clockEventReasons: 4,
    })
  })

  test('a v2 symbol that rejects the struct version moves the device to v1', () => {
    useFake({ devices: [{ ...h200, fail: { nvmlDeviceGetMemoryInfo_v2: 25 } }] })
    const device = firstDevice()
    expect(device.snapshot()).toMatchObject({ memTotalBytes: 150_754_820_096, memReservedBytes: null })
    expect(device.apis.memory).toBe('nvmlDeviceGetMemoryInfo')
  })
})

describe('slow reads', () => {
  test('energy in mJ and the enforced power limit in mW', () => {
    useFake({ devices: [h200] })
    const device = firstDevice()
    expect([device.energyMj(), device.powerLimitMw()]).toEqual([123_456_789, 700_000])
  })

  test('energyFromPower: the counter grows by power x elapsed time, as a driver keeps it, and never steps back', async () => {
    useFake({ devices: [{ ...h200, energyFromPower: true }] })
    const device = firstDevice()
    const readings: { atMs: number; mj: number }[] = []
    for (let i = 0; i < 4; i++) {
      readings.push({ atMs: performance.now(), mj: device.energyMj()! })
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    expect(readings[0]!.mj).toBeGreaterThanOrEqual(123_456_789)
    for (let i = 1; i < readings.length; i++) {
      const grewMj = readings[i]!.mj - readings[i - 1]!.mj
      const elapsedMs = readings[i]!.atMs - readings[i - 1]!.atMs
      // 120.5 W over the ~100 ms between reads: about 12 J; the reads' own timing is what the bounds allow for.
      expect(grewMj).toBeGreaterThan((120_500 * elapsedMs * 0.8) / 1e3)
      expect(grewMj).toBeLessThan((120_500 * elapsedMs * 1.2) / 1e3)
    }
  })

  test('a process list longer than the first buffer is grown and read whole', () => {
    const processes = Array.from({ length: 300 }, (_, i) => ({
      pid: 10_000 + i,
      usedGpuMemoryBytes: (i + 1) * 1_048_576,
    }))
    const fake = useFake({ devices: [{ ...h200, processes }] })
    const session = openSession()
    const read = session.listDevices()[0]!.processes()
    expect(read?.length).toBe(300)
    expect(read?.[299]).toEqual({
      pid: 10_299,
      usedGpuMemoryBytes: 300 * 1_048_576,
      gpuInstanceId: 0,
      computeInstanceId: 0,
    })
    session.close()
    expect(fake.stats().calls.nvmlDeviceGetComputeRunningProcesses_v3).toBe(2)
    expect(fake.stats().calls.nvmlDeviceGetComputeRunningProcesses).toBe(0)
  })

  test('memory NVML cannot attribute reads as null', () => {
    useFake({ devices: [{ ...h200, processes: [{ pid: 7, usedGpuMemoryBytes: 0xffff_ffff_ffff_ffffn }] }] })
    expect(firstDevice().processes()).toEqual([
      { pid: 7, usedGpuMemoryBytes: null, gpuInstanceId: 0, computeInstanceId: 0 },
    ])
  })

  test('utilization samples newer than a timestamp; none newer is an empty list', () => {
    const samplesGpu = Array.from({ length: 40 }, (_, i) => ({ timeStampUs: 1_000_000 + i * 200_000, valuePct: i }))
    useFake({ devices: [{ ...h200, samplesGpu }] })
    const device = firstDevice()
    const samples = device.utilizationSamples('gpu', 1_000_000 + 29 * 200_000)
    expect(samples).toEqual(samplesGpu.slice(30))
    expect(device.utilizationSamples('gpu', 9e15)).toEqual([])
  })

  test('a device without sample buffers gives null for samples', () => {
    useFake({ devices: [h200] }, { omit: ['SAMPLES'] })
    expect(firstDevice(() => {}).utilizationSamples('memory')).toBeNull()
  })
})
