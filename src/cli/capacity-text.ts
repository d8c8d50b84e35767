/**
 * The refit as lines for a terminal (`virnucpro-bench capacity`): the answer first (status, sentence, its tables, the
 * design, the decisions, the definitions: report/render/answer-text.ts, the same rows as capacity.md), then the
 * settings study of the directories read, where they hold one (report/render/study-text.ts, summary.md's table), then
 * the evidence: per configuration its measured sizes, model and projections, the held-out checks, the verdicts (marked
 * PROVISIONAL where the answer is). One unit rule with the reports (capacity/figure-columns.ts): seconds for what was
 * measured, hours for a projected size. Pure, data in, lines out.
 */

import type { CapacityAnswer } from '../capacity/answer.ts'
import { answerView } from '../capacity/answer-table.ts'
import { msPer, type TimeUnit, timeUnitAt } from '../capacity/figure-columns.ts'
import type { HeldOutCheck, SpeedupCheck } from '../capacity/held-out.ts'
import type { CapacityStats } from '../capacity/index.ts'
import { RATE_SOURCE_NAMES } from '../capacity/index.ts'
import type { SizeEstimate } from '../measure/index.ts'
import type { StudyReport } from '../report/analyses/study.ts'
import { answerTextLines } from '../report/render/answer-text.ts'
import { studyTextLines } from '../report/render/study-text.ts'
import type { Verdict } from '../results/schema/index.ts'

const count = (n: number) => Math.round(n).toLocaleString('en-US')

/** A time in `unit` (seconds: 2 decimals; hours: 3), with its CI and its half-width in %. */
export function timeText(e: SizeEstimate, unit: TimeUnit): string {
  const by = msPer(unit)
  const f = (ms: number) => (ms / by).toFixed(unit === 'h' ? 3 : 2)
  if (!e.ci) return `${f(e.estimate)} ${unit} (no CI)`
  const half = ((e.ci.high - e.ci.low) / 2 / e.estimate) * 100
  return `${f(e.estimate)} ${unit} [${f(e.ci.low)}, ${f(e.ci.high)}] (+-${half.toFixed(1)}%)`
}

function configLines(c: CapacityStats['configurations'][number], measuredSequences: number): string[] {
  const lines = [`${c.label} (${c.gpuCount} GPU${c.gpuCount === 1 ? '' : 's'}):`]
  for (const s of c.sizes)
    lines.push(
      `  measured ${count(s.records)} records: median ${(s.medianWallMs / 1000).toFixed(2)} s of ${s.runs} runs`,
    )
  const ms = c.wall.msPerSequence
  lines.push(
    `  model: fixed ${timeText(c.wall.fixedMs, 's')} + ${ms.estimate.toFixed(4)} ms/sequence${ms.ci ? ` [${ms.ci.low.toFixed(4)}, ${ms.ci.high.toFixed(4)}]` : ''}`,
  )
  for (const r of c.steady)
    lines.push(`  ${r.stage}: steady part read inside ${r.runs} of ${r.of} runs, from ${RATE_SOURCE_NAMES[r.source]}`)
  for (const a of c.at) {
    const top = a.dominant?.[0]
    lines.push(
      `  at ${count(a.sequences)} sequences: ${timeText(a.wallMs, timeUnitAt(a.sequences, measuredSequences))}${top ? `; CI mostly ${top.part} (${top.sharePct.toFixed(0)}%)` : ''}`,
    )
  }
  for (const s of c.stages)
    for (const u of s.utilAt)
      lines.push(
        `  ${s.stage} utilization at ${count(u.sequences)}: ${u.utilPct ? `${u.utilPct.estimate.toFixed(1)}%${u.utilPct.ci ? ` [${u.utilPct.ci.low.toFixed(1)}, ${u.utilPct.ci.high.toFixed(1)}]` : ''}` : 'none'}${u.disagreement ? ` (${u.disagreement})` : ''}`,
      )
  if (!c.support.supported)
    lines.push(
      `  NOT SUPPORTED, projections ${c.support.lowerBound ? 'lower bounds (a time target decided only where even its CI is above it)' : 'inconclusive'}: ${c.support.problems.join('; ')}${c.support.nextRecords ? `; measure ${count(c.support.nextRecords)} records next` : ''}`,
    )
  return lines
}

/** A verdict's line; a provisional answer's verdicts marked so (never a final PASS or FAIL). */
const verdictLine = (final: boolean) => (v: Verdict) =>
  `  ${`${final ? '' : 'PROVISIONAL '}${v.verdict.toUpperCase()}`.padEnd(final ? 12 : 24)} ${v.id}: ${v.value === null ? '-' : v.value.toPrecision(4)} ${v.unit ?? ''}${v.ci ? ` [${v.ci.low.toPrecision(4)}, ${v.ci.high.toPrecision(4)}]` : ''}`

function checkLines(checks: { sizes: readonly HeldOutCheck[]; speedups: readonly SpeedupCheck[] }): string[] {
  const sizes = checks.sizes.map(
    (h) =>
      `held out: ${h.label} at ${count(h.records)} records, median ${(h.medianWallMs / 1000).toFixed(2)} s of ${h.runs} runs; projected ${h.projectedMs ? timeText(h.projectedMs, 's') : '-'}; error ${h.errorPct?.toFixed(2) ?? '-'}%, inside CI: ${h.insideCi ?? '-'}`,
  )
  const speedups = checks.speedups.map(
    (s) =>
      `held out: ${s.gpuCount} GPUs vs 1 at ${count(s.sequences)} sequences, measured ${s.measured.toFixed(3)}x; projected ${s.projected ? `${s.projected.estimate.toFixed(3)}x${s.projected.ci ? ` [${s.projected.ci.low.toFixed(3)}, ${s.projected.ci.high.toFixed(3)}]` : ''}` : '-'}; inside CI: ${s.insideCi ?? '-'}`,
  )
  return [...sizes, ...speedups]
}

/**
 * Every line of the refit: a damaged study record's line, the answer, the settings study (none without a study
 * record), then the notes, configurations, the held-out checks, the verdicts.
 */
export function capacityText(
  answer: CapacityAnswer,
  stats: CapacityStats,
  verdicts: readonly Verdict[],
  notes: readonly string[],
  checks: { sizes: readonly HeldOutCheck[]; speedups: readonly SpeedupCheck[] } = { sizes: [], speedups: [] },
  study: StudyReport = { entries: [] },
): string[] {
  const studyLines = studyTextLines(study)
  // A damaged study record first, in one line (issue 47: its notice sat 70 lines below an answer it may have changed).
  const damaged = study.entries.flatMap((e) => (e.shows === 'line' && e.damaged ? [e.line] : []))
  return [
    ...damaged.map((line) => `note: ${line}; its settings' capacity answers are left out of this refit`),
    ...answerTextLines(answerView(answer)),
    ...(studyLines.length ? ['', ...studyLines] : []),
    '',
    `Evidence: capacity refit: ${stats.sizes.map(count).join(' / ')} records of ${stats.input.path || 'the input'}`,
    ...notes.map((n) => `  note: ${n}`),
    ...stats.configurations.flatMap((c) => configLines(c, stats.measuredSequences)),
    ...stats.notFitted.map((n) => `${n.label}: not fitted: ${n.reason}`),
    ...checkLines(checks),
    `verdicts${answer.status.final ? '' : ` (${answer.statusText}: judged on the runs kept so far)`}:`,
    ...verdicts.map(verdictLine(answer.status.final)),
  ]
}
