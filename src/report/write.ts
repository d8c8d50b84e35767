/**
 * The one writer of report files: renders every format from one Report and writes each file atomically into `outDir`,
 * then appends the step summary to $GITHUB_STEP_SUMMARY when that is set.
 */
import { appendFile, mkdir } from 'node:fs/promises'
import { join } from 'node:path'
import { writeFileAtomic } from '../results/atomic-write.ts'
import { buildReport, type Report } from './analyses/build.ts'
import type { ReportInput } from './input.ts'
import { bencherMetricsJson } from './render/bmf.ts'
import { githubBenchmarkJson } from './render/ci-formats.ts'
import { renderHtml } from './render/html.ts'
import { bottleneckJson, perf02Json, summaryJson } from './render/json.ts'
import { sectionMarkdown, stepSummary, summaryMarkdown } from './render/markdown.ts'
import { traceJson } from './render/trace.ts'

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

export interface WrittenReports {
  report: Report
  outDir: string
  files: string[]
  /** Where the step summary went, or null when GITHUB_STEP_SUMMARY was not set. */
  stepSummaryPath: string | null
}

/** Renders every report file's content from the one Report. Pure apart from SVG rendering being async. */
export async function renderReports(report: Report, input: ReportInput): Promise<Map<string, string>> {
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
    ['github-benchmark.json', githubBenchmarkJson(report)],
    ['trace.json', traceJson(input.records, input.series)],
  ])
}

/**
 * Builds and writes every report for `input`.
 * @throws the fs error (naming the file) when `outDir` cannot be written.
 */
export async function writeReports(
  input: ReportInput,
  outDir: string,
  env: NodeJS.ProcessEnv = process.env,
): Promise<WrittenReports> {
  const report = buildReport(input)
  const contents = await renderReports(report, input)
  await mkdir(outDir, { recursive: true })
  const files: string[] = []
  for (const [name, content] of contents) {
    const path = join(outDir, name)
    await writeFileAtomic(path, content)
    files.push(path)
  }
  const stepSummaryPath = env.GITHUB_STEP_SUMMARY?.trim() || null
  if (stepSummaryPath) await appendFile(stepSummaryPath, stepSummary(report))
  return { report, outDir, files, stepSummaryPath }
}
