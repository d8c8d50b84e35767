import { describe, expect, test } from 'vitest'
import { GpmSampler, gpmSupported } from '../../src/nvml/gpm.ts'
import { openSession, useFake } from './support/session.ts'

function device() {
  return openSession({ warn: () => {} }).listDevices()[0]!
}

describe('gpmSupported', () => {
  test('true or false as the driver answers', () => {
    useFake({ devices: [{ gpmSupported: true }, { gpmSupported: false }] })
    expect(openSession().listDevices().map(gpmSupported)).toEqual([true, false])
  })

  test('null when the library has no GPM functions', () => {
    useFake({ devices: [{}] }, { omit: ['GPM'] })
    expect(gpmSupported(device())).toBeNull()
  })
})

describe('GpmSampler', () => {
  test('the first sample only primes; later ones give metrics over the interval', () => {
    useFake({ devices: [{ gpm: { 2: [80, 90], 5: 78.5, 10: 15 } }] })
    const opened = GpmSampler.open(device())
    if (opened.state !== 'ready') throw new Error(opened.reason)
    expect(opened.sampler.sample()).toEqual({ state: 'first' })
    const second = opened.sampler.sample()
    expect(second).toMatchObject({
      state: 'completed',
      values: { smUtilPct: 80, anyTensorUtilPct: 78.5, dramBwUtilPct: 15 },
    })
    expect(second.state === 'completed' && second.intervalMs).toBeGreaterThanOrEqual(0)
    expect(opened.sampler.sample()).toMatchObject({ values: { smUtilPct: 90 } })
    opened.sampler.close()
  })

  test('a metric the GPU lacks is null', () => {
    useFake({ devices: [{ gpm: { 2: 50 } }] })
    const opened = GpmSampler.open(device(), ['smUtilPct', 'fp64UtilPct'])
    if (opened.state !== 'ready') throw new Error(opened.reason)
    opened.sampler.sample()
    expect(opened.sampler.sample()).toMatchObject({ values: { smUtilPct: 50, fp64UtilPct: null } })
    opened.sampler.close()
  })

  test('unsupported devices say so instead of allocating', () => {
    useFake({ devices: [{ gpmSupported: false }] })
    expect(GpmSampler.open(device())).toEqual({ state: 'unsupported', reason: 'GPU 0 reports no GPM support' })
  })

  test('close frees both NVML samples, once', () => {
    const fake = useFake({ devices: [{ gpm: { 2: 50 } }] })
    const session = openSession()
    const opened = GpmSampler.open(session.listDevices()[0]!)
    if (opened.state !== 'ready') throw new Error(opened.reason)
    opened.sampler.sample()
    opened.sampler.close()
    opened.sampler.close()
    session.close()
    expect(fake.stats().liveGpmSamples).toBe(0)
    expect(() => opened.sampler.sample()).toThrow('GPM sampler for GPU 0 used after close()')
  })

  test('a GPU lost mid-run throws GPU_IS_LOST and retires the device', () => {
    useFake({ devices: [{ gpm: { 2: 50 }, lostAfterCalls: 2 }] })
    const target = device()
    const opened = GpmSampler.open(target)
    if (opened.state !== 'ready') throw new Error(opened.reason)
    opened.sampler.sample()
    expect(() => opened.sampler.sample()).toThrow(/NVML_ERROR_GPU_IS_LOST/)
    expect(target.lost?.code).toBe('NVML_ERROR_GPU_IS_LOST')
    opened.sampler.close()
  })
})
