/**
 * One synchronous look at NVML for setup code and `doctor`: is it usable here, which driver, which devices. Never
 * throws (no addon, no library, no driver, a failing device all become `available: false` with a reason) and always
 * shuts NVML down again.
 */
import { gpmSupported } from './gpm.ts'
import { openNvml } from './session.ts'

export interface ProbedDevice {
  index: number
  name: string
  uuid: string
  pciBusId: string
  memTotalBytes: number
  /** null when the driver cannot say. */
  gpmSupported: boolean | null
}

export type NvmlProbe =
  | { available: true; libraryPath: string; driverVersion: string; nvmlVersion: string; devices: ProbedDevice[] }
  | { available: false; reason: string }

/** Probes NVML once. `libraryPath` and `addonPath` override the search of load.ts. */
export function probeNvml(options: { addonPath?: string; libraryPath?: string } = {}): NvmlProbe {
  try {
    const opened = openNvml({ ...options, warn: () => {} })
    if (!opened.available) return { available: false, reason: opened.reason }
    const { session } = opened
    try {
      const devices = session
        .listDevices()
        .map((device) => ({ ...device.identity(), gpmSupported: gpmSupported(device) }))
      return {
        available: true,
        libraryPath: session.bindingInfo.libraryPath,
        driverVersion: session.driverVersion(),
        nvmlVersion: session.nvmlVersion(),
        devices,
      }
    } finally {
      session.close()
    }
  } catch (error) {
    return { available: false, reason: `NVML probe failed: ${error instanceof Error ? error.message : String(error)}` }
  }
}
