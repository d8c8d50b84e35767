/**
 * The one writer of report files: renders every format from one Report and writes each file atomically into `outDir`,
 * then appends the step summary to $GITHUB_STEP_SUMMARY when that is set.
 */
import { appendFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import { makeDirs } from '../platform/make-dirs.ts'
import { writeFileAtomic } from '../results/atomic-write.ts'
import { buildReport, type Report } from './analyses/build.ts'
import { ReportError } from './errors.ts'
import type { ReportInput } from './input.ts'
import { bencherMetricsJson } from './render/bmf.ts'
import { githubBenchmarkJson } from './render/ci-formats.ts'
import { renderHtml } from './render/html.ts'
import { bottleneckJson, perf02Json, summaryJson } from './render/json.ts'
import { sectionMarkdown, summaryMarkdown } from './render/markdown.ts'
import { stepSummaryOf } from './render/step-summary.ts'
import { traceJson } from './render/trace.ts'

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
export interface LeftOut {
  file: string
  reason: string
}

export interface WrittenReports {
  report: Report
  outDir: string
  files: string[]
  leftOut: LeftOut[]
  /** Where the step summary went, or null when GITHUB_STEP_SUMMARY was not set. */
  stepSummaryPath: string | null
}

/** github-action-benchmark stops at an empty list ("No benchmark result was found"): such a file is not handed to it. */
const NO_FIGURES: LeftOut = {
  file: 'github-benchmark.json',
  reason: 'no figures to chart (github-action-benchmark refuses an empty list)',
}

/** Renders every report file's content from the one Report. Pure apart from SVG rendering being async. */
export async function renderReports(report: Report, input: ReportInput): Promise<Map<string, string>> {
  const github = githubBenchmarkJson(report)
  return new Map<string, string>([
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
}

/**
 * Builds and writes every report for `input`.
 * @throws ReportError REPORT_WRITE naming the directory when a file cannot be written.
 */
export async function writeReports(
  input: ReportInput,
  outDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<WrittenReports> {
  return writeReport(buildReport(input), input, outDir, env)
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
  const files: string[] = []
  const stepSummaryPath = env.GITHUB_STEP_SUMMARY?.trim() || null
  try {
    await makeDirs(outDir)
    for (const [name, content] of contents) {
      const path = join(outDir, name)
      await writeFileAtomic(path, content)
      files.push(path)
    }
    // An older run's file would be read as this run's.
    for (const { file } of leftOut) await rm(join(outDir, file), { force: true })
    const fullReport = `${join(outDir, 'summary.md')} (in the job's artifacts when the workflow uploads them)`
    if (stepSummaryPath) await appendFile(stepSummaryPath, stepSummaryOf(contents.get('summary.md')!, fullReport))
  } catch (error) {
    const why = (error as Error).message
    const done = files.length === 0 ? 'nothing was written' : `${files.length} of ${contents.size} files written`
    throw new ReportError(
      'REPORT_WRITE',
      `cannot write the reports to '${outDir}' (${why}; ${done}): give another directory`,
      {
        cause: error,
      },
    )
  }
  return { report, outDir, files, leftOut, stepSummaryPath }
}
