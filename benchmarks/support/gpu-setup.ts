import { beforeEach } from 'vitest'
import { gpuAvailability } from './gpu.ts'
import { describeUnavailable } from './gpu-availability.ts'

// Runs before every test of the `gpu` project: on a machine without a usable GPU the test is skipped with the reason the
// global setup found, so no GPU check can pass by accident. Suites keep GPU work in tests, or in hooks guarded by
// `gpuAvailable()`, never at module top level.
const availability = gpuAvailability()

beforeEach((context) => {
  if (!availability.ok) context.skip(describeUnavailable(availability.reason))
})
