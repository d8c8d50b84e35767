import { beforeEach } from 'vitest'
import { gpuAvailability } from './gpu.ts'
import { describeUnavailable } from './gpu-availability.ts'
import { isValidationFile, VALIDATION_NOT_ASKED, validationAsked } from './main-job.ts'

// Runs before every test of the `gpu` project: on a machine without a usable GPU the test is skipped with the reason the
// global setup found, so no GPU check can pass by accident. Suites keep GPU work in tests, or in hooks guarded by
// `gpuAvailable()`, never at module top level. The validation known answers are skipped, saying how to ask for them,
// unless VIRNUCPRO_BENCH_VALIDATION asks (main-job.ts): their hooks check validationAsked() as well.
const availability = gpuAvailability()
const validationAskedHere = validationAsked()

beforeEach((context) => {
  if (!availability.ok) context.skip(describeUnavailable(availability.reason))
  if (!validationAskedHere && isValidationFile(context.task.file.filepath)) context.skip(VALIDATION_NOT_ASKED)
})
