/**
 * The checks `virnucpro-bench report` makes on what it read before it writes anything, so that a report is never green
 * on nothing: every directory given holds valid records, a baseline holds some, and a regression gate has at least one
 * run group to judge. Pure: read input in, nothing or one ReportError out.
 */
import { resolve, sep } from 'node:path'
import type { RegressionReport } from './analyses/regression.ts'
import { ReportError } from './errors.ts'
import type { ReportInput, StoredRun } from './input.ts'

/** One invalid file named, and how many more: what a one-line refusal can say about a directory of bad files. */
function invalidDetail(invalid: StoredRun['invalid']): string {
  const [first] = invalid
  if (!first) return 'no .json record files there'
  const more = invalid.length > 1 ? ` (and ${invalid.length - 1} more invalid files)` : ''
  return `only invalid files, e.g. ${first.file}: ${first.reason}${more}`
}

const within = (dir: string, root: string) => dir === root || dir.startsWith(root.endsWith(sep) ? root : root + sep)

/** What `given` contributed: records (copies of another directory's counted), invalid files, why it was not read. */
function contribution(input: ReportInput, given: string) {
  const root = resolve(given)
  if (!input.sources) {
    const problem = input.seriesNotes.find((n) => n.startsWith(`results directory ${root}: not read`)) ?? null
    return { records: input.records.length, invalid: input.invalid, problem }
  }
  const sources = input.sources.filter((s) => within(resolve(s.dir), root))
  const records = sources.reduce((n, s) => n + s.records + s.duplicates, 0)
  const invalid = input.invalid.filter((i) => within(resolve(i.file), root))
  return { records, invalid, problem: sources.find((s) => s.problem !== null)?.problem ?? null }
}

/**
 * @param given the RESULTS_DIRs as the user wrote them.
 * @throws ReportError REPORT_NO_RECORDS naming the first directory that holds no valid record, and what it holds.
 */
export function checkRecordsFound(input: ReportInput, given: readonly string[]): void {
  for (const dir of given) {
    const found = contribution(input, dir)
    if (found.records > 0) continue
    const what = found.problem ? `could not be read (${found.problem})` : invalidDetail(found.invalid)
    throw new ReportError(
      'REPORT_NO_RECORDS',
      `RESULTS_DIR '${dir}' holds no valid result record: ${what}: give a results/<runId> directory or a results root holding runs; nothing was written`,
    )
  }
}

/** @throws ReportError REPORT_NO_RECORDS when the baseline asked for holds no valid record. */
export function checkBaseline(baseline: StoredRun | null, given: string | undefined): void {
  if (baseline === null || baseline.records.length > 0) return
  throw new ReportError(
    'REPORT_NO_RECORDS',
    `--baseline '${given ?? baseline.dir}' holds no valid result record: ${invalidDetail(baseline.invalid)}: give the results/<runId> directory of the run to compare with; nothing was written`,
  )
}

const groupsOf = (list: RegressionReport['unmatched'], side: 'candidate' | 'baseline') => {
  const names = list.filter((u) => u.side === side).map((u) => `${u.recordId}/${u.group}`)
  return names.length > 3 ? `${names.slice(0, 3).join(', ')}, ... (${names.length})` : names.join(', ') || 'none'
}

/**
 * A regression gate that compared nothing would pass whatever happened: refused.
 * @throws ReportError REPORT_NOTHING_COMPARED naming both sides' run groups.
 */
export function checkSomethingCompared(regression: RegressionReport | null, given: string | undefined): void {
  if (regression === null || regression.comparisons.length > 0 || regression.errors.length > 0) return
  const { unmatched } = regression
  throw new ReportError(
    'REPORT_NOTHING_COMPARED',
    `--fail-on-regression has nothing to judge: --baseline '${given ?? regression.baselineDir}' shares no run group with RESULTS_DIR (baseline: ${groupsOf(unmatched, 'baseline')}; this run: ${groupsOf(unmatched, 'candidate')}): give a baseline run of the same suites and setups; nothing was written`,
  )
}
