import type { TestProject } from 'vitest/node'
import { checkSuiteSettings } from '../../src/engine/settings.ts'
import { FIXTURES_CACHE_DIR } from '../../src/input/dataset-cache.ts'
import { probeNvml } from '../../src/nvml/probe.ts'
import { failProject } from './fail-project.ts'
import { describeUnavailable, type GpuAvailability } from './gpu-availability.ts'

/**
 * Before anything else, the settings are checked as `virnucpro-bench doctor` checks them (src/config/check.ts): every
 * VIRNUCPRO_BENCH_* variable, the thresholds file, the input, read and validated the way the suites read it (its
 * identity is cached, so they do not read it again), and the user's pipeline options against the target's own help. A bad one fails the project here, one line each, before any GPU
 * time or fixture is spent; it used to fail each file's setup and end as `0 passed, 0 failed, 5 skipped`.
 * Then NVML is probed once for the whole project. Without a driver (or with no device) it says so in one line, here,
 * rather than once per test; gpu-setup.ts then skips every test with the same reason.
 */
export default async function setup(project: TestProject): Promise<void> {
  const problems = await checkSuiteSettings(process.env, {
    cacheDir: FIXTURES_CACHE_DIR,
    onNote: (note) => console.warn(`virnucpro-bench: note: ${note}`),
  })
  if (problems.length > 0) {
    for (const problem of problems) console.error(`virnucpro-bench: ${problem.message}`)
    failProject(
      project,
      `gpu project: ${problems.length} bad setting(s), named above; nothing was run (virnucpro-bench doctor --settings checks them)`,
    )
  }
  project.provide('gpuAvailability', probeAvailability())
}

function probeAvailability(): GpuAvailability {
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
  return availability
}
