/**
 * Clock-event ("throttle") reason bits from nvmlDeviceGetCurrentClocksEventReasons. Hardware slowdown, thermal
 * limits and the power brake during a timed run make that run's timing suspect.
 */
export const CLOCK_EVENT_REASONS = {
  gpuIdle: 0x1,
  applicationClocksSetting: 0x2,
  swPowerCap: 0x4,
  hwSlowdown: 0x8,
  syncBoost: 0x10,
  swThermalSlowdown: 0x20,
  hwThermalSlowdown: 0x40,
  hwPowerBrakeSlowdown: 0x80,
  displayClockSetting: 0x100,
} as const

export type ClockEventReason = keyof typeof CLOCK_EVENT_REASONS

const SUSPECT_MASK =
  CLOCK_EVENT_REASONS.hwSlowdown |
  CLOCK_EVENT_REASONS.swThermalSlowdown |
  CLOCK_EVENT_REASONS.hwThermalSlowdown |
  CLOCK_EVENT_REASONS.hwPowerBrakeSlowdown

/** The named reasons set in `mask`, in bit order; bits without a name are left out (see `unknownReasonBits`). */
export function decodeClockEventReasons(mask: number): ClockEventReason[] {
  const names: ClockEventReason[] = []
  for (const [name, bit] of Object.entries(CLOCK_EVENT_REASONS) as [ClockEventReason, number][]) {
    if (hasBit(mask, bit)) names.push(name)
  }
  return names
}

/** Bits of `mask` this module has no name for (newer drivers add reasons). */
export function unknownReasonBits(mask: number): number {
  const known = Object.values(CLOCK_EVENT_REASONS).reduce((all, bit) => all | bit, 0)
  return Number(BigInt(mask) & ~BigInt(known))
}

/** True when `mask` holds a hardware slowdown, a thermal limit or the power brake. */
export function isTimingSuspect(mask: number): boolean {
  return hasBit(mask, SUSPECT_MASK)
}

// Bit tests through BigInt: masks are 64-bit in NVML and JS bitwise operators truncate to 32.
function hasBit(mask: number, bits: number): boolean {
  return (BigInt(mask) & BigInt(bits)) !== 0n
}
