/**
 * The one writer of report files: renders every format from one Report and replaces the set in `outDir` whole or not
 * at all (report-set.ts), then appends the step summary to $GITHUB_STEP_SUMMARY, whole or not at all, when that is set.
 */
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import { AppendError, appendWhole } from '../platform/append-whole.ts'
import { fsErrorCode, fsProblem } from '../platform/fs-problem.ts'
import { firstMissingLevel, makeDirs, removeMadeDirs } from '../platform/make-dirs.ts'
import { buildReport, type Report } from './analyses/build.ts'
import { ReportError } from './errors.ts'
import type { ReportInput } from './input.ts'
import type { LeftOut } from './left-out.ts'
import { bencherMetricsJson } from './render/bmf.ts'
import { githubBenchmarkJson } from './render/ci-formats.ts'
import { renderHtml } from './render/html.ts'
import { bottleneckJson, perf02Json, summaryJson } from './render/json.ts'
import { sectionMarkdown, summaryMarkdown } from './render/markdown.ts'
import { stepSummaryOf } from './render/step-summary.ts'
import { traceJson } from './render/trace.ts'
import { withoutControlBytes } from './render/without-controls.ts'
import { ReportSetError, replaceReportSet } from './report-set.ts'

/** Every file a report may write (github-benchmark.json only when it has figures). */
export const REPORT_FILES = [
  'summary.md',
  'summary.json',
  'bottleneck.md',
  'bottleneck.json',
  'perf02.md',
  'perf02.json',
  'scaling.md',
  'memory.md',
  'capacity.md',
  'index.html',
  'bench.bmf.json',
  'github-benchmark.json',
  'trace.json',
] as const

/** A report file not written this time, and why (an older copy in the directory is removed). */
export type { LeftOut }

export interface WrittenReports {
  report: Report
  outDir: string
  files: string[]
  leftOut: LeftOut[]
  /** Where the step summary went, or null when GITHUB_STEP_SUMMARY was not set. */
  stepSummaryPath: string | null
  /**
   * Why the step summary was not appended (nothing of it was: the file is as it was), or null. The reports are
   * written then; the caller prints them and then this, and fails.
   */
  stepSummaryError: ReportError | null
  /** Staging directories of earlier writes killed midway, found in `outDir` and removed (to be said). */
  removedLeftovers: string[]
}

/** github-action-benchmark stops at an empty list ("No benchmark result was found"): such a file is not handed to it. */
const NO_FIGURES: LeftOut = {
  file: 'github-benchmark.json',
  reason: 'no figures to chart (github-action-benchmark refuses an empty list)',
}

/**
 * Renders every report file's content from the one Report. Pure apart from SVG rendering being async. Whatever a
 * renderer let through, no control byte reaches a file (render/without-controls.ts).
 */
export async function renderReports(report: Report, input: ReportInput): Promise<Map<string, string>> {
  const github = githubBenchmarkJson(report)
  const contents = new Map<string, string>([
    ['summary.md', summaryMarkdown(report)],
    ['summary.json', summaryJson(report)],
    ['bottleneck.md', sectionMarkdown(report, 'bottleneck')],
    ['bottleneck.json', bottleneckJson(report)],
    ['perf02.md', sectionMarkdown(report, 'perf02')],
    ['perf02.json', perf02Json(report)],
    ['scaling.md', sectionMarkdown(report, 'scaling')],
    ['memory.md', sectionMarkdown(report, 'memory')],
    ['capacity.md', sectionMarkdown(report, 'capacity')],
    ['index.html', await renderHtml(report, input.records, input.series)],
    ['bench.bmf.json', bencherMetricsJson(report)],
    ...(github === null ? [] : [['github-benchmark.json', github] as [string, string]]),
    ['trace.json', traceJson(input.records, input.series)],
  ])
  for (const [name, content] of contents) contents.set(name, withoutControlBytes(name, content))
  return contents
}

/**
 * Builds and writes every report for `input`.
 * @throws ReportError REPORT_WRITE naming the file that could not be written and why; the earlier reports are kept.
 */
export async function writeReports(
  input: ReportInput,
  outDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<WrittenReports> {
  return writeReport(buildReport(input), input, outDir, env)
}

/** A write that failed, in one message: which file, what the file system said, what became of the earlier reports. */
function writeFailure(error: unknown, outDir: string, hadEarlier: boolean): ReportError {
  const what = error instanceof ReportSetError ? `write '${error.file}'` : `make the directory '${outDir}'`
  const kept =
    error instanceof ReportSetError && !error.restored
      ? `the earlier reports could not be put back: they are in '${error.keptIn}'`
      : hadEarlier
        ? `the earlier reports in '${outDir}' are as they were, none replaced`
        : 'nothing was written'
  const full = ['ENOSPC', 'EDQUOT'].includes(fsErrorCode(error) ?? '')
  return new ReportError(
    'REPORT_WRITE',
    `cannot ${what}: ${fsProblem(error)}; ${kept}: ${full ? 'free space there or ' : ''}give another directory`,
    { cause: error },
  )
}

/** The step summary appended whole, or the error naming its file (nothing of it appended). */
async function appendStepSummary(path: string, text: string, outDir: string): Promise<ReportError | null> {
  try {
    await appendWhole(path, text)
    return null
  } catch (error) {
    const left =
      error instanceof AppendError && !error.restored
        ? 'part of it may have been appended'
        : 'nothing was appended, the file is as it was'
    return new ReportError(
      'REPORT_STEP_SUMMARY',
      `cannot append the step summary to $GITHUB_STEP_SUMMARY '${path}': ${fsProblem(error)}; ${left} (the reports in '${outDir}' were written)`,
      { cause: error },
    )
  }
}

/** As writeReports, for a report built already (the CLI judges it before anything is written). */
export async function writeReport(
  report: Report,
  input: ReportInput,
  outDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<WrittenReports> {
  const contents = await renderReports(report, input)
  const leftOut = contents.has(NO_FIGURES.file) ? [] : [NO_FIGURES]
  const stepSummaryPath = env.GITHUB_STEP_SUMMARY?.trim() || null
  const made = await firstMissingLevel(outDir)
  const earlier = made === null ? new Set(await readdir(outDir).catch(() => [])) : new Set<string>()
  let replaced: Awaited<ReturnType<typeof replaceReportSet>>
  try {
    await makeDirs(outDir)
    // Every name of the set: a file an earlier run wrote that this one does not (github-benchmark.json without
    // figures) would be read as this run's, so it goes with the earlier set.
    replaced = await replaceReportSet(outDir, contents, REPORT_FILES)
  } catch (error) {
    await removeMadeDirs(outDir, made)
    throw writeFailure(
      error,
      outDir,
      REPORT_FILES.some((name) => earlier.has(name)),
    )
  }
  const fullReport = `${join(outDir, 'summary.md')} (in the job's artifacts when the workflow uploads them)`
  const stepSummaryError = stepSummaryPath
    ? await appendStepSummary(stepSummaryPath, stepSummaryOf(contents.get('summary.md')!, fullReport), outDir)
    : null
  return {
    report,
    outDir,
    files: replaced.files,
    leftOut,
    stepSummaryPath,
    stepSummaryError,
    removedLeftovers: replaced.removedLeftovers,
  }
}
