import { collectDoctorReport } from '../doctor/collect.ts'
import { renderDoctorReport } from '../doctor/render.ts'
import { parseCommand } from './command-spec.ts'
import { doctorSpec } from './specs.ts'

/**
 * `virnucpro-bench doctor [--json]`: what this machine can do. Exit 0 whatever it finds (a machine without a GPU is a
 * valid place to run the unit project); the report says what is missing and why.
 */
export async function run(args: string[]): Promise<number> {
  const { values } = parseCommand(doctorSpec, args)
  const report = await collectDoctorReport()
  process.stdout.write(values.json ? `${JSON.stringify(report, null, 2)}\n` : renderDoctorReport(report))
  return 0
}
