/** The markdown reports: summary.md (everything, short), and one file per analysis. Pure: report in, text out. */
import { answerView } from '../../capacity/answer-table.ts'
import { type ArchitectureComparison, architectureLine } from '../../capacity/architecture-compare.ts'
import type { Report } from '../analyses/build.ts'
import { type AnswerParts, answerMarkdown } from './answer-markdown.ts'
import { capacityMarkdown } from './capacity-markdown.ts'
import { noAnswerLine } from './capacity-text.ts'
import { escapeMarkdown as esc } from './escape.ts'
import { fleetMarkdown } from './fleet-markdown.ts'
import { fmtNum } from './format.ts'
import {
  bottleneckMarkdown,
  e2eMarkdown,
  kindMarkdown,
  memoryMarkdown,
  perf02Markdown,
  regressionMarkdown,
  scalingMarkdown,
} from './markdown-sections.ts'
import { mdTable } from './markdown-table.ts'
import { studyMarkdown } from './study-markdown.ts'
import { trendsMarkdown } from './trends-markdown.ts'
import { verdictLegendMarkdown } from './verdict-legend.ts'

/** The line that says a report covers an incomplete run; null when the run passed. */
export function outcomeNote(report: Report): string | null {
  if (report.outcome.state === 'passed') return null
  return `${report.outcome.state.toUpperCase()}: ${report.outcome.note}`
}

function header(report: Report, title: string): string {
  const c = report.counts
  const note = outcomeNote(report)
  // A partial record (a measurement stopped mid-way) is one of the records: counted, so the counts add up.
  const partial = c.partial > 0 ? `${c.partial} partial, ` : ''
  const lines = [
    `# ${title}`,
    '',
    `Run ${esc(report.runId ?? 'n/a')}: ${c.records} records (${c.completed} completed, ${partial}${c.failed} failed, ${c.skipped} skipped), ${c.invalid} invalid files.`,
  ]
  if (note) lines.push('', `> **${esc(note)}**`)
  return `${lines.join('\n')}\n`
}

/**
 * The capacity answers at a report's top, answer first (every report reads the same object: capacity/answer.ts):
 * per capacity record its status and sentence and the `parts` of its evidence this report shows; '' without one. A
 * known answer's record is no configuration's answer: it stays with the evidence (capacity.md).
 */
export function answerTop(report: Report, parts: AnswerParts = {}): string {
  const entries = report.capacity.entries.filter((e) => !e.knownAnswer)
  if (entries.length === 0) return ''
  const blocks = entries.map((e) => {
    const body = e.answer
      ? answerMarkdown(answerView(e.answer), { heading: entries.length > 1 ? '####' : '###', ...parts })
      : `**${esc(noAnswerLine(e))}**\n`
    return entries.length > 1 ? `### ${esc(e.name)}\n\n${body}` : body
  })
  return `## The capacity answer\n\n${blocks.join('\n')}${architecturesMarkdown(report.capacity.architectures)}`
}

/** v2.0 against v1.0 (issue 56), a line each, after the answers they are read from; '' without a pair. */
function architecturesMarkdown(comparisons: readonly ArchitectureComparison[]): string {
  if (comparisons.length === 0) return ''
  return `\n### v2.0 against v1.0 (each a capacity answer of its own)\n\n${comparisons.map((c) => `- ${esc(architectureLine(c))}`).join('\n')}\n`
}

function suitesTable(report: Report): string {
  if (report.suites.length === 0) return '_No result records._\n'
  const rows = report.suites.map((s) => [s.verdict.toUpperCase(), s.kind, s.name, s.keyFigure ?? s.reason ?? ''])
  return `${mdTable(['verdict', 'kind', 'suite', 'key figure / reason'], rows)}\n`
}

function invalidList(report: Report): string {
  if (report.invalid.length === 0) return ''
  return `\n## Invalid record files\n\n${mdTable(
    ['file', 'reason'],
    report.invalid.map((i) => [i.file, i.reason]),
  )}\n`
}

function benchmarksTable(report: Report): string {
  if (report.benchmarks.length === 0) return ''
  const rows = report.benchmarks.map((b) => [
    b.project,
    b.name,
    fmtNum(b.latencyMs.mean, 3),
    fmtNum(b.latencyMs.p99, 3),
    `±${fmtNum(b.latencyMs.rme, 2)}%`,
    String(b.samples),
  ])
  return `\n## Benchmarks\n\n${mdTable(['project', 'benchmark', 'mean ms', 'p99 ms', 'rme', 'samples'], rows)}\n`
}

function notesList(report: Report): string {
  return report.notes.length === 0 ? '' : `\n## Notes\n\n${report.notes.map((n) => `- ${esc(n)}`).join('\n')}\n`
}

export function summaryMarkdown(report: Report): string {
  const top = answerTop(report)
  const study = studyMarkdown(report.study)
  return [
    header(report, 'VirNucPro benchmark report'),
    ...(top ? [top] : []),
    // The settings study right after the answer it tunes (nothing without a study record).
    ...(study ? [study] : []),
    `## Suites\n\n${suitesTable(report)}`,
    `## PERF-02 (GPU utilization in the embedding stages)\n\n${perf02Markdown(report.perf02)}`,
    `## Scaling\n\n${scalingMarkdown({ curves: report.scaling.curves.filter((c) => c.scope === 'total') })}`,
    `## End to end\n\n${e2eMarkdown(report.e2e)}`,
    `## Capacity (verdicts at the size users run)\n\n${capacityMarkdown(report.capacity)}`,
    // Only a merged report (several hosts, directories or shards) has a fleet: one host's summary stays as it was.
    ...(report.fleet ? [`## Fleet: hosts, GPU models and sharded runs\n\n${fleetMarkdown(report.fleet)}`] : []),
    `## Regression\n\n${regressionMarkdown(report.regression)}`,
    `## Trends over the history\n\n${trendsMarkdown(report.trends)}`,
    `## Bottlenecks\n\nSee bottleneck.md: ${report.bottleneck.groups.reduce((n, g) => n + g.flags.length, 0)} flags over ${report.bottleneck.groups.length} run groups.\n`,
    invalidList(report),
    benchmarksTable(report),
    notesList(report),
    // The answer and its evidence first; what each verdict state means last, for whoever needs it.
    `\n## What the verdicts mean\n\n${verdictLegendMarkdown()}`,
  ].join('\n')
}

/** The answer, then a heading for the report's own evidence; nothing without an answer (the layout stays as it was). */
const then = (top: string, title: string) => (top ? `${top}\n## ${title}\n\n` : '')

/** capacity.md's settings study, after every capacity record's answer and evidence; '' without a study record. */
const studyAfter = (report: Report) => {
  const study = studyMarkdown(report.study)
  return study ? `\n${study}` : ''
}

export function sectionMarkdown(
  report: Report,
  file: 'bottleneck' | 'perf02' | 'scaling' | 'memory' | 'capacity',
): string {
  switch (file) {
    case 'bottleneck':
      return `${header(report, 'Bottlenecks')}\n${then(answerTop(report, { tables: ['stages', 'measure-more'], decisions: false }), 'The measured runs, per run group')}${bottleneckMarkdown(report.bottleneck)}`
    case 'perf02':
      return `${header(report, 'PERF-02: GPU utilization')}\n${then(answerTop(report, { tables: ['perf02'], decisions: false }), 'Measured, per run group, stage and GPU')}${perf02Markdown(report.perf02)}`
    case 'scaling':
      return `${header(report, 'Scaling')}\n${scalingMarkdown(report.scaling)}`
    case 'capacity':
      return `${header(report, 'Capacity: verdicts at the size users run')}\n${capacityMarkdown(report.capacity, true)}${studyAfter(report)}`
    case 'memory':
      return `${header(report, 'Memory')}\n${memoryMarkdown(report.memory)}\n## Equivalence\n\n${kindMarkdown(report.kinds.equivalence)}\n## Sweeps\n\n${kindMarkdown(report.kinds.sweep)}\n## A/B\n\n${kindMarkdown(report.kinds.ab)}`
  }
}
