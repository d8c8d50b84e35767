import { rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { describe, expect, onTestFinished, test } from 'vitest'
import { probeNvml } from '../../src/nvml/probe.ts'
import { ADDON_PATH, useFake } from './support/session.ts'

describe('probeNvml', () => {
  test('reports driver, NVML version and every device with GPM support', () => {
    const fake = useFake({
      driverVersion: '580.159.04',
      nvmlVersion: '13.580.159.04',
      devices: [
        { name: 'NVIDIA H200', uuid: 'GPU-1', busId: '00000000:18:00.0', memTotalBytes: 150_754_820_096 },
        { gpmSupported: false },
      ],
    })
    const probe = probeNvml({ addonPath: ADDON_PATH })
    expect(probe).toEqual({
      available: true,
      libraryPath: fake.libraryPath,
      driverVersion: '580.159.04',
      nvmlVersion: '13.580.159.04',
      devices: [
        {
          index: 0,
          name: 'NVIDIA H200',
          uuid: 'GPU-1',
          pciBusId: '00000000:18:00.0',
          memTotalBytes: 150_754_820_096,
          gpmSupported: true,
        },
        expect.objectContaining({ index: 1, gpmSupported: false }),
      ],
    })
  })

  test('shuts NVML down again', () => {
    const fake = useFake({ devices: [{}] })
    probeNvml({ addonPath: ADDON_PATH })
    expect(fake.stats().refCount).toBe(0)
  })

  test('a missing library is a reason naming the path and the dlopen error', () => {
    const probe = probeNvml({ addonPath: ADDON_PATH, libraryPath: '/nonexistent/libnvidia-ml.so.1' })
    expect(probe).toEqual({
      available: false,
      reason: expect.stringMatching(
        /^\/nonexistent\/libnvidia-ml.so.1 not found \(from option libraryPath; dlopen: .*No such file/,
      ),
    })
  })

  test('a driver that is not loaded is a reason, not an exception', () => {
    useFake({ initReturn: 9, devices: [] })
    expect(probeNvml({ addonPath: ADDON_PATH })).toEqual({
      available: false,
      reason: expect.stringContaining('nvmlInit_v2 returned NVML_ERROR_DRIVER_NOT_LOADED (Driver Not Loaded)'),
    })
  })

  test('a missing addon is a reason, not an exception', () => {
    const probe = probeNvml({ addonPath: '/nonexistent/nvml.node' })
    expect(probe).toEqual({
      available: false,
      reason: expect.stringMatching(/^addon not loadable: \/nonexistent\/nvml.node/),
    })
  })

  test('a file that is not an addon is a reason, not an exception', () => {
    const notAddon = path.join(os.tmpdir(), `not-an-addon-${process.pid}.node`)
    writeFileSync(notAddon, 'not ELF')
    onTestFinished(() => rmSync(notAddon, { force: true }))
    expect(probeNvml({ addonPath: notAddon })).toMatchObject({
      available: false,
      reason: expect.stringContaining(notAddon),
    })
  })

  test('a device failing mid-probe is a reason and NVML is still shut down', () => {
    const fake = useFake({ devices: [{ fail: { nvmlDeviceGetUUID: 999 } }] })
    expect(probeNvml({ addonPath: ADDON_PATH })).toEqual({
      available: false,
      reason: 'NVML probe failed: nvmlDeviceGetUUID (device 0) returned NVML_ERROR_UNKNOWN: Unknown Error',
    })
    expect(fake.stats().refCount).toBe(0)
  })
})
