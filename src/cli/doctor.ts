import { collectDoctorReport } from '../doctor/collect.ts'
import { renderDoctorReport, settingsLines } from '../doctor/render.ts'
import type { SettingsFinding } from '../doctor/report.ts'
import { checkSettingsHere } from '../doctor/settings-check.ts'
import { parseCommand } from './command-spec.ts'
import { EXIT_OK, EXIT_VERDICT } from './exit-codes.ts'
import { doctorSpec } from './specs.ts'

/**
 * `virnucpro-bench doctor [--settings] [--json]`: what this machine can do, and whether the settings are right. A machine without a
 * GPU is a valid place to run the unit project: what is missing is reported, exit 0. A bad setting (a
 * VIRNUCPRO_BENCH_* variable, the thresholds file, the input) is a failed check: one line each on stderr, exit 1.
 */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(doctorSpec, args)
  // --settings: no probe of the machine (python, torch, NVML), so a job script can check in a second before a GPU run.
  if (values.settings) {
    const settings = await checkSettingsHere()
    process.stdout.write(
      values.json ? `${JSON.stringify({ settings }, null, 2)}\n` : `${settingsLines(settings).join('\n')}\n`,
    )
    return settingsExit(settings)
  }
  const report = await collectDoctorReport()
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctorReport(report))
  return settingsExit(report.settings)
}

/** Each problem on stderr, one line; exit 1 when there is any. */
function settingsExit(settings: SettingsFinding): number {
  for (const problem of settings.problems) console.error(`virnucpro-bench: ${problem}`)
  return settings.problems.length === 0 ? EXIT_OK : EXIT_VERDICT
}
