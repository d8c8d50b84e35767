import { stat } from 'node:fs/promises'
import { loadReportInput } from '../report/load.ts'
import { terminalSummary } from '../report/render/terminal.ts'
import { reportsDir } from '../report/run-dir.ts'
import { writeReports } from '../report/write.ts'
import { parseCommand } from './command-spec.ts'
import { reportSpec } from './specs.ts'
import { UsageError } from './usage-error.ts'

const USAGE = `${reportSpec.name} ${reportSpec.operands} [options]; --help lists them`

async function requireDir(path: string, what: string): Promise<void> {
  const info = await stat(path).catch(() => null)
  if (!info?.isDirectory()) throw new UsageError(`report: ${what} '${path}' is not a directory (usage: ${USAGE})`)
}

/**
 * `virnucpro-bench report [RESULTS_DIR...] [--baseline DIR] [--out DIR] [--fail-on-regression] [--history FILE]`:
 * rebuilds every report from stored records (RESULTS_DIR defaults to the current directory). Several RESULTS_DIRs, or a
 * results root holding run directories, are merged into one report whose fleet section compares their hosts and
 * sharded runs. With --history, trends over a history database (one that cannot be used is a note in the reports).
 * Exit 0; 1 when --fail-on-regression finds a regression; 2 for a usage error. Invalid record files are listed on
 * stderr and in the reports (the rest merged), never fatal.
 */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(reportSpec, args)
  const resultsDirs = positionals.length > 0 ? positionals : ['.']
  for (const dir of resultsDirs) await requireDir(dir, 'RESULTS_DIR')
  if (values.baseline !== undefined) await requireDir(values.baseline, '--baseline')
  const input = await loadReportInput({
    resultsDir: resultsDirs.length === 1 ? resultsDirs[0]! : resultsDirs,
    baselineDir: values.baseline ?? null,
    history: values.history ?? null,
    // The benchmarks and how the run ended, as the reporter stored them beside the records (unknown when it did not).
    rebuild: true,
  })
  const written = await writeReports(input, reportsDir(values.out))
  for (const bad of written.report.invalid)
    console.error(`virnucpro-bench report: invalid record ${bad.file}: ${bad.reason}`)
  console.log(terminalSummary(written.report, written.outDir, written.files).join('\n'))
  const regressed = written.report.regression?.regressed ?? 0
  return values['fail-on-regression'] && regressed > 0 ? 1 : 0
}
