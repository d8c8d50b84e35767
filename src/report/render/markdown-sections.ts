/** Markdown for each analysis (pure: analysis in, text out). Every string from records passes through escaping. */

import { DEFINITIONS } from '../../capacity/answer.ts'
import { MIN_JUDGED_STAGE_MS } from '../../config/judging.ts'
import type { BottleneckReport } from '../analyses/bottleneck.ts'
import type { E2eReport } from '../analyses/e2e.ts'
import type { KindEntry } from '../analyses/kinds.ts'
import type { MemoryReport } from '../analyses/memory.ts'
import type { Perf02Report } from '../analyses/perf02.ts'
import type { RegressionReport } from '../analyses/regression.ts'
import type { ScalingReport } from '../analyses/scaling.ts'
import { escapeMarkdown as esc } from './escape.ts'
import { fmtGiB, fmtMs, fmtNum, fmtPct, fmtRange } from './format.ts'
import { mdTable } from './markdown-table.ts'
import { SPLIT_HEAD, sizeModelSource, splitCells } from './stage-split.ts'

/** Markdown is for people: past these, the rest is in the JSON reports (which hold everything). */
export const MAX_MD_GROUPS = 200
export const MAX_MD_ROWS = 1_000

function more(total: number, shown: number, what: string, file: string): string {
  return total > shown ? `\n_${total - shown} more ${what} in ${file}._\n` : ''
}

export function bottleneckMarkdown(report: BottleneckReport): string {
  if (report.groups.length === 0) return '_No completed or kept runs to analyze._\n'
  const short = `Stages under ${MIN_JUDGED_STAGE_MS.toLocaleString('en-US')} ms are shown but not judged: a stage that short times its process start and the log's clock (VirNucPro logs at 1 s), not its work.\n`
  const shown = report.groups.slice(0, MAX_MD_GROUPS)
  const advice = adviceMarkdown(report.advice)
  return `${shown
    .map((g) => {
      const stages = mdTable(
        ['stage', 'time', 'share', 'GPU stage', 'util', 'SM util', ...SPLIT_HEAD],
        g.stages.map((s) => [
          s.stage,
          fmtMs(s.durationMs),
          fmtPct(s.share * 100),
          s.gpuStage ? 'yes' : '',
          fmtPct(s.utilPct),
          fmtPct(s.smUtilPct),
          ...splitCells(s),
        ]),
      )
      const flags =
        g.flags.length === 0
          ? '_No flags._'
          : mdTable(
              ['stage', 'rule', 'evidence', 'recommendation'],
              g.flags.map((f) => [f.stage, f.rule, f.evidence, f.recommendation]),
            )
      const mark = g.provisional ? ' PROVISIONAL: the runs a measurement stopped mid-way kept so far' : ''
      const head = `### ${esc(g.recordIds.join(', '))}: ${esc(g.group)} (${g.gpuCount} GPU, ${g.runs} runs, mean wall ${fmtMs(g.wallMs)})${mark}`
      return `${head}\n\n${stages}\n\nOutside every stage: ${fmtMs(g.outsideStagesMs)}.${esc(sizeModelSource(g))}\n\n${flags}\n`
    })
    .join('\n')}${more(report.groups.length, shown.length, 'run groups', 'bottleneck.json')}\n${advice}${short}`
}

/** Each flagged stage once: what to do, and the target's own options for it with what the settings study measured. */
export function adviceMarkdown(advice: BottleneckReport['advice']): string {
  if (advice.length === 0) return ''
  const stages = advice.map((a) => {
    const options =
      a.options.length === 0
        ? ''
        : `\n\n${mdTable(
            ['option', "the target's help", 'what the settings study measured'],
            a.options.map((o) => [
              `${o.flag}${o.scope === 'stage' ? '' : ` (${o.scope})`}`,
              o.help || 'not read',
              o.measured ?? 'not varied',
            ]),
          )}`
    return `**${esc(a.stage)}**: ${esc(a.summary)}${options}\n`
  })
  return `### What to change in the flagged stages\n\n${stages.join('\n')}\n`
}

/** A row's verdict: a partial record's marked PROVISIONAL, never a final PASS or FAIL. */
export const perf02Verdict = (r: Perf02Report['rows'][number]) =>
  `${r.provisional ? 'PROVISIONAL ' : ''}${r.verdict.toUpperCase()}`

export function perf02Markdown(report: Perf02Report): string {
  if (report.rows.length === 0) return '_No GPU-stage monitor data._\n'
  const rows = report.rows
    .slice(0, MAX_MD_ROWS)
    .map((r) => [
      r.recordIds.join(', '),
      r.group,
      r.stage,
      String(r.gpu),
      fmtPct(r.utilMeanPct),
      fmtPct(r.utilP50Pct),
      fmtPct(r.utilP5Pct),
      fmtPct(r.smUtilPct),
      fmtPct(r.tensorUtilPct),
      `>= ${r.thresholdPct}%`,
      perf02Verdict(r),
      r.note ?? '',
    ])
  const head = [
    'record',
    'setup',
    'stage',
    'GPU',
    'util avg',
    'p50',
    'p5',
    'SM util',
    'tensor',
    'threshold',
    'verdict',
    'note',
  ]
  const provisional = report.provisional
    ? `, ${report.provisional} provisional (the runs a measurement stopped mid-way kept: not counted)`
    : ''
  return `${report.pass} pass, ${report.fail} fail${provisional}.\n\n${mdTable(head, rows)}\n${more(report.rows.length, rows.length, 'rows', 'perf02.json')}`
}

/** Where a report says "speedup", it says what it is (the capacity answer's definition: one wording). */
const SPEEDUP_DEFINED = DEFINITIONS.find((d) => d.startsWith('speedup')) ?? ''

export function scalingMarkdown(report: ScalingReport): string {
  if (report.curves.length === 0) return '_No scaling records._\n'
  return `${report.curves
    .slice(0, MAX_MD_GROUPS)
    .map((c) => {
      const rows = c.points.map((p) => [
        String(p.gpuCount),
        String(p.runs),
        `${fmtMs(p.medianMs)}${fmtRange(p.ci, fmtMs)}`,
        p.speedup === null ? 'n/a' : `${p.speedup.toFixed(2)}x${fmtRange(p.speedupCi, (v) => v.toFixed(2))}`,
        `${p.gpuCount}x`,
        p.efficiency === null ? 'n/a' : fmtPct(p.efficiency * 100),
        p.verdict ?? '',
        p.reason ?? '',
      ])
      const table = mdTable(
        ['GPUs', 'runs', 'median time [95% CI]', 'speedup [95% CI]', 'ideal', 'efficiency', 'verdict', 'reason'],
        rows,
      )
      return `### ${esc(c.name)}: ${esc(c.scope)}\n\n${table}\n`
    })
    .join('\n')}\n${esc(SPEEDUP_DEFINED)}\n`
}

export function memoryMarkdown(report: MemoryReport): string {
  if (report.rows.length === 0) return '_No device memory readings._\n'
  const rows = report.rows
    .slice(0, MAX_MD_ROWS)
    .map((r) => [
      r.recordIds.join(', '),
      r.group,
      String(r.gpu),
      fmtGiB(r.peakMemUsedBytes),
      fmtGiB(r.memTotalBytes),
      r.share === null ? 'n/a' : fmtPct(r.share * 100),
      `<= ${fmtPct(r.limitShare * 100)}`,
      r.verdict.toUpperCase(),
    ])
  return `${mdTable(['record', 'setup', 'GPU', 'peak used', 'capacity', 'share', 'limit', 'verdict'], rows)}\n${more(report.rows.length, rows.length, 'rows', 'summary.json')}`
}

export function e2eMarkdown(report: E2eReport): string {
  if (report.rows.length === 0) return '_No end-to-end records._\n'
  const rows = report.rows.flatMap((r) =>
    r.projections.map((p) => [
      r.recordId,
      r.group,
      String(r.runs),
      fmtMs(r.wallMs),
      fmtNum(r.sequences, 0),
      `${p.sequences}`,
      `${fmtMs(p.projectedMs)}${fmtRange(p.ci, fmtMs)}`,
      fmtMs(p.limitMs),
      p.verdict.toUpperCase(),
    ]),
  )
  const note =
    'Projection: the e2e suite projection (start-up and model build fixed, steady rate per sequence); CI = within-run variation.'
  return `${note}\n\n${mdTable(['record', 'setup', 'runs', 'median wall', 'sequences', 'project to', 'projected [95% CI]', 'limit', 'verdict'], rows)}\n`
}

export function kindMarkdown(entries: readonly KindEntry[]): string {
  if (entries.length === 0) return '_None in this run._\n'
  return entries
    .map((e) => {
      const verdicts = e.verdicts.map((v) => [
        v.title,
        v.verdict.toUpperCase(),
        v.value === null ? 'n/a' : `${fmtNum(v.value)} ${v.unit ?? ''}`,
        v.threshold ?? '',
        v.detail,
      ])
      const figs = e.figures.map((f) => `${f.name} = ${fmtNum(f.value, 4)}`).join(', ')
      const body =
        verdicts.length > 0
          ? mdTable(['verdict', 'result', 'value', 'threshold', 'detail'], verdicts)
          : '_No verdicts._'
      return `#### ${esc(e.name)} (${e.state}${e.reason ? `: ${esc(e.reason)}` : ''})\n\n${body}\n${figs ? `\nStats: ${esc(figs)}\n` : ''}`
    })
    .join('\n')
}

export function regressionMarkdown(report: RegressionReport | null): string {
  if (report === null) return '_No baseline given (--baseline DIR)._\n'
  const rows = report.comparisons.map((c) => [
    c.recordId,
    c.group,
    c.metric,
    fmtMs(c.baseline.median),
    fmtMs(c.candidate.median),
    c.ratio ? `${c.ratio.estimate.toFixed(3)} [${c.ratio.ci.low.toFixed(3)}, ${c.ratio.ci.high.toFixed(3)}]` : 'n/a',
    c.verdict.toUpperCase(),
    c.reason,
  ])
  const unmatched = [
    ...report.errors.map((e) => `- ERROR, not compared: ${esc(e.recordId)} / ${esc(e.group)}: ${esc(e.reason)}`),
    ...report.unmatched.map((u) => `- only in ${u.side}: ${esc(u.recordId)} / ${esc(u.group)}`),
  ].join('\n')
  const errors = report.errors.length > 0 ? `, ${report.errors.length} not compared (error)` : ''
  const compared = report.comparisons.length
  // "0 regressed" of nothing compared would read as a pass.
  const verdict =
    compared === 0 && report.errors.length === 0
      ? 'nothing compared (no run group in common with this run): no regression verdict'
      : `${report.regressed} regressed of ${compared} compared${errors}`
  const head = `Baseline ${esc(report.baselineRunId ?? report.baselineDir)}, threshold ${fmtPct(report.threshold * 100, 0)}: ${verdict}.`
  return `${head}\n\n${mdTable(['record', 'setup', 'metric', 'baseline', 'candidate', 'ratio [95% CI]', 'verdict', 'reason'], rows)}\n${unmatched ? `\n${unmatched}\n` : ''}`
}
