import { stat } from 'node:fs/promises'
import { join } from 'node:path'
import { thresholdsScopeNote } from '../config/thresholds.ts'
import { escapeControls } from '../platform/one-line.ts'
import { buildReport } from '../report/analyses/build.ts'
import { regressionGateFails } from '../report/analyses/regression.ts'
import { ReportError } from '../report/errors.ts'
import { loadReportInput } from '../report/load.ts'
import { checkOutDir } from '../report/out-dir.ts'
import { checkBaseline, checkRecordsFound, checkSomethingCompared } from '../report/record-checks.ts'
import { terminalSummary } from '../report/render/terminal.ts'
import { listRunDirs, reportsDir, resultsRoot } from '../report/run-dir.ts'
import { REPORT_FILES, writeReport } from '../report/write.ts'
import { parseCommand } from './command-spec.ts'
import { EXIT_OK, EXIT_VERDICT, UnusableDataError } from './exit-codes.ts'
import { checkOutputTarget } from './output-target.ts'
import { reportSpec } from './specs.ts'
import { UsageError } from './usage-error.ts'

const USAGE = `${reportSpec.name} ${reportSpec.operands} [options]; --help lists them`

async function requireDir(path: string, what: string): Promise<void> {
  const info = await stat(path).catch(() => null)
  if (!info?.isDirectory()) throw new UsageError(`report: ${what} '${path}' is not a directory (usage: ${USAGE})`)
}

/** No RESULTS_DIR: the current directory was read before, and a checkout's package.json reported as a bad record. */
async function missingResultsDir(): Promise<UsageError> {
  const root = resultsRoot()
  const newest = (await listRunDirs(root)).sort().at(-1)
  const example = newest ? join(root, newest) : `${root}/<runId>`
  return new UsageError(
    `report: expected RESULTS_DIR, a results/<runId> directory or a results root: e.g. 'virnucpro-bench report ${example}'`,
  )
}

type ReportValues = ReturnType<typeof parseCommand<typeof reportSpec>>['values']

/** Everything that can be checked on the command line and the disk before anything is read. @throws UsageError */
async function checkArguments(values: ReportValues, resultsDirs: readonly string[]): Promise<void> {
  if (resultsDirs.length === 0) throw await missingResultsDir()
  for (const dir of resultsDirs) await requireDir(dir, 'RESULTS_DIR')
  if (values.baseline !== undefined) await requireDir(values.baseline, '--baseline')
  if (values['fail-on-regression'] && values.baseline === undefined)
    throw new UsageError('report: --fail-on-regression needs --baseline DIR, the run to compare with')
}

/**
 * `virnucpro-bench report RESULTS_DIR... [--baseline DIR] [--out DIR] [--fail-on-regression] [--history FILE]`:
 * rebuilds every report from stored records. Several RESULTS_DIRs, or a results root holding run directories, are
 * merged into one report whose fleet section compares their hosts and sharded runs. With --history, trends over a
 * history database (one that cannot be used is a note in the reports). Invalid record files are listed on stderr and
 * in the reports, the rest merged; but a directory with no valid record, an empty baseline, a gate with nothing to
 * compare and an output directory that would lose the user's files are refused before anything is written.
 * Exit 0; 1 --fail-on-regression found a regression; 2 usage; 3 unusable data (ReportError).
 */
export async function run(args: string[]): Promise<number> {
  const { values, positionals } = parseCommand(reportSpec, args)
  await checkArguments(values, positionals)
  // Records carry the thresholds they were judged by; a thresholds file set here changes nothing, and says so.
  const scope = thresholdsScopeNote()
  if (scope) console.error(`virnucpro-bench report: note: ${scope}`)
  const outDir = reportsDir(values.out)
  // Never into or over a run directory (issue 58): its readers would take the reports' JSON for records of its own.
  const option = values.out !== undefined ? '--out' : 'reports directory'
  checkOutputTarget({ command: 'report', option, target: outDir, instead: 'a directory outside every run directory' })
  try {
    await checkOutDir(outDir, REPORT_FILES, '--out')
    const input = await loadReportInput({
      resultsDir: positionals.length === 1 ? positionals[0]! : positionals,
      baselineDir: values.baseline ?? null,
      history: values.history ?? null,
      // The benchmarks and how the run ended, as the reporter stored them beside the records (unknown when it did not).
      rebuild: true,
    })
    checkRecordsFound(input, positionals)
    checkBaseline(input.baseline, values.baseline)
    const report = buildReport(input)
    if (values['fail-on-regression']) checkSomethingCompared(report.regression, values.baseline)
    const written = await writeReport(report, input, outDir)
    // Stored data on the console: each line one line, controls escaped (a `\n::error` in a field is no command).
    for (const bad of report.invalid)
      console.error(escapeControls(`virnucpro-bench report: invalid record ${bad.file}: ${bad.reason}`))
    for (const left of written.removedLeftovers)
      console.error(
        escapeControls(`virnucpro-bench report: note: removed ${left}, the unfinished reports of a killed run`),
      )
    console.log(terminalSummary(report, written.outDir, written.files, written.leftOut).join('\n'))
    if (written.stepSummaryError) throw written.stepSummaryError
    return values['fail-on-regression'] && regressionGateFails(report.regression) ? EXIT_VERDICT : EXIT_OK
  } catch (error) {
    if (error instanceof ReportError) throw new UnusableDataError(`report: ${error.message}`, { cause: error })
    throw error
  }
}
