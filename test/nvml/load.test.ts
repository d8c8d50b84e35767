import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { addonCandidates, libraryChoice, loadNvml } from '../../src/nvml/load.ts'
import { ADDON_PATH, useFake } from './support/session.ts'

describe('addon search order', () => {
  test('option, then VIRNUCPRO_BENCH_NVML_ADDON, then build/Release, then build/Debug', () => {
    const env = { VIRNUCPRO_BENCH_NVML_ADDON: '/env/nvml.node' }
    const candidates = addonCandidates({ addonPath: '/option/nvml.node', env })
    expect(candidates.map((c) => c.source)).toEqual([
      'option addonPath',
      'VIRNUCPRO_BENCH_NVML_ADDON',
      'build/Release',
      'build/Debug',
    ])
    expect(candidates[2]?.path).toBe(ADDON_PATH)
    expect(candidates[3]?.path).toBe(path.join(path.dirname(ADDON_PATH), '..', 'Debug', 'nvml.node'))
  })

  test('without overrides the built addon is found', () => {
    useFake({ devices: [] })
    expect(loadNvml({ env: { VIRNUCPRO_BENCH_NVML_LIB: process.env.VIRNUCPRO_BENCH_NVML_LIB } })).toMatchObject({
      available: true,
      addonPath: ADDON_PATH,
    })
  })

  test('an explicit addon path that fails is reported, not skipped', () => {
    const loaded = loadNvml({ env: { VIRNUCPRO_BENCH_NVML_ADDON: '/missing/nvml.node' } })
    expect(loaded).toEqual({
      available: false,
      reason: expect.stringMatching(/^addon not loadable: \/missing\/nvml.node \(from VIRNUCPRO_BENCH_NVML_ADDON\)/),
    })
  })
})

describe('library choice', () => {
  test('option beats VIRNUCPRO_BENCH_NVML_LIB, which beats the dlopen default', () => {
    const env = { VIRNUCPRO_BENCH_NVML_LIB: '/env/libnvidia-ml.so.1' }
    expect(libraryChoice({ libraryPath: '/opt/lib.so', env }).path).toBe('/opt/lib.so')
    expect(libraryChoice({ env })).toEqual({ path: '/env/libnvidia-ml.so.1', source: 'VIRNUCPRO_BENCH_NVML_LIB' })
    expect(libraryChoice({ env: {} })).toEqual({ path: 'libnvidia-ml.so.1', source: 'default dlopen search' })
  })

  test('the default library is absent on this machine and named in the reason', () => {
    expect(loadNvml({ addonPath: ADDON_PATH, env: {} })).toEqual({
      available: false,
      reason: expect.stringMatching(/^libnvidia-ml.so.1 not found \(from default dlopen search; dlopen: /),
    })
  })

  test('a loaded library reports which versioned symbols it has', () => {
    const fake = useFake({ devices: [] }, { omit: ['GPM'] })
    const loaded = loadNvml({ addonPath: ADDON_PATH })
    if (!loaded.available) throw new Error(loaded.reason)
    expect(loaded.libraryPath).toBe(fake.libraryPath)
    expect(loaded.symbols).toMatchObject({ nvmlInit_v2: true, nvmlDeviceGetCount_v2: true, nvmlGpmSampleAlloc: false })
  })
})
