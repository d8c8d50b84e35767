import { probeNvml } from '../nvml/probe.ts'
import { checkNode } from './node-check.ts'
import { checkPython, checkVirnucpro } from './python-check.ts'
import type { DoctorReport } from './report.ts'
import { checkSettingsHere } from './settings-check.ts'

/** Gathers every finding; never throws for a missing part (each says why it is missing instead). */
export async function collectDoctorReport(env: NodeJS.ProcessEnv = process.env): Promise<DoctorReport> {
  const probe = probeNvml()
  const nvml: DoctorReport['nvml'] = probe.available
    ? {
        found: true,
        libraryPath: probe.libraryPath,
        driverVersion: probe.driverVersion,
        nvmlVersion: probe.nvmlVersion,
        gpus: probe.devices,
      }
    : { found: false, reason: probe.reason }
  const python = checkPython(env)
  return {
    node: checkNode(),
    nvml,
    python,
    virnucpro: await checkVirnucpro(env),
    target: env.VIRNUCPRO_BENCH_TARGET?.trim() || 'reference',
    settings: await checkSettingsHere(env),
  }
}
