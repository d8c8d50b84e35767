// Property: whatever a fake script says, the typed API reads back exactly that, field by field, for every device.
import fc from 'fast-check'
import { expect, test } from 'vitest'
import type { FakeDevice } from '../support/fake-nvml.ts'
import { openSession, useFake } from './support/session.ts'

const u32 = fc.integer({ min: 0, max: 0xffff_ffff })
const text = fc.stringMatching(/^[A-Za-z0-9 _:.-]{1,60}$/)

const deviceArbitrary = fc
  .record({
    name: text,
    uuid: text,
    memTotalBytes: fc.integer({ min: 2 ** 32, max: 2 ** 50 }),
    memUsedBytes: fc.integer({ min: 0, max: 2 ** 31 }),
    memReservedBytes: fc.integer({ min: 0, max: 2 ** 31 }),
    utilGpuPct: fc.integer({ min: 0, max: 100 }),
    utilMemoryPct: fc.integer({ min: 0, max: 100 }),
    temperatureC: fc.integer({ min: 0, max: 120 }),
    powerMw: u32,
    clockSmMhz: u32,
    clockMemMhz: u32,
    clockEventReasons: fc.maxSafeNat(),
  })
  .map((device): FakeDevice & { memUsedBytes: number; memReservedBytes: number; memTotalBytes: number } => device)

test('snapshot and identity read back every scripted field of every device', () => {
  fc.assert(
    fc.property(fc.array(deviceArbitrary, { minLength: 1, maxLength: 4 }), (devices) => {
      useFake({ devices })
      const session = openSession()
      session.listDevices().forEach((device, index) => {
        const script = devices[index]!
        expect(device.identity()).toMatchObject({
          index,
          name: script.name,
          uuid: script.uuid,
          memTotalBytes: script.memTotalBytes,
        })
        expect(device.snapshot()).toMatchObject({
          state: 'ok',
          utilGpuPct: script.utilGpuPct,
          utilMemoryPct: script.utilMemoryPct,
          memUsedBytes: script.memUsedBytes,
          memReservedBytes: script.memReservedBytes,
          memFreeBytes: script.memTotalBytes - script.memReservedBytes - script.memUsedBytes,
          temperatureC: script.temperatureC,
          powerMw: script.powerMw,
          smClockMhz: script.clockSmMhz,
          memClockMhz: script.clockMemMhz,
          clockEventReasons: script.clockEventReasons,
        })
      })
      session.close()
    }),
    { numRuns: 60 },
  )
})
