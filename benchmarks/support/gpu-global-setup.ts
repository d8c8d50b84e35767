import type { TestProject } from 'vitest/node'
import { probeNvml } from '../../src/nvml/probe.ts'
import { describeUnavailable, type GpuAvailability } from './gpu-availability.ts'

/**
 * Probes NVML once for the whole `gpu` project. Without a driver (or with no device) it says so in one line, here,
 * rather than once per test; gpu-setup.ts then skips every test with the same reason.
 */
export default function setup(project: TestProject): void {
  const probe = probeNvml()
  let availability: GpuAvailability
  if (!probe.available) availability = { ok: false, reason: probe.reason }
  else if (probe.devices.length === 0) availability = { ok: false, reason: 'NVML loaded but reports 0 devices' }
  else
    availability = {
      ok: true,
      driverVersion: probe.driverVersion,
      gpuCount: probe.devices.length,
      gpuNames: probe.devices.map((device) => device.name),
    }
  if (!availability.ok) console.warn(describeUnavailable(availability.reason))
  project.provide('gpuAvailability', availability)
}
