import fc from 'fast-check'
import { expect, test } from 'vitest'
import {
  CLOCK_EVENT_REASONS,
  decodeClockEventReasons,
  isTimingSuspect,
  unknownReasonBits,
} from '../../src/nvml/clock-reasons.ts'

test('decodes the idle and power-cap bits by name', () => {
  expect(decodeClockEventReasons(0x1 | 0x4)).toEqual(['gpuIdle', 'swPowerCap'])
})

test('hardware slowdown, thermal and power brake make timing suspect; idle and power cap do not', () => {
  expect(isTimingSuspect(0x8)).toBe(true)
  expect(isTimingSuspect(0x40)).toBe(true)
  expect(isTimingSuspect(0x80)).toBe(true)
  expect(isTimingSuspect(0x1 | 0x4)).toBe(false)
})

test('named bits and unknown bits together rebuild any 53-bit mask', () => {
  fc.assert(
    fc.property(fc.maxSafeNat(), (mask) => {
      const named = decodeClockEventReasons(mask).reduce((all, name) => all | BigInt(CLOCK_EVENT_REASONS[name]), 0n)
      return (named | BigInt(unknownReasonBits(mask))) === BigInt(mask)
    }),
  )
})

test('a mask is suspect exactly when it holds one of the four slowdown bits', () => {
  fc.assert(
    fc.property(fc.maxSafeNat(), (mask) => {
      const names = decodeClockEventReasons(mask)
      const expected = ['hwSlowdown', 'swThermalSlowdown', 'hwThermalSlowdown', 'hwPowerBrakeSlowdown'].some((n) =>
        names.includes(n as never),
      )
      return isTimingSuspect(mask) === expected
    }),
  )
})
