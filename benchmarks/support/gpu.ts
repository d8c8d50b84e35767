import { inject } from 'vitest'
import type { GpuAvailability } from './gpu-availability.ts'

/** The `gpu` project's finding about this machine (from its global setup). */
export function gpuAvailability(): GpuAvailability {
  return inject('gpuAvailability')
}

/** For `beforeAll` hooks that would start GPU work: false on a machine without a usable GPU (its tests are skipped). */
export function gpuAvailable(): boolean {
  return gpuAvailability().ok
}
