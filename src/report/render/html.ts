/**
 * index.html: one self-contained page (inline CSS and SVG, no script, no external resource) with the suite verdicts,
 * the fleet of a merged report (hosts, GPU models, bad nodes, sharded runs), capacity (verdicts at the size users run, with its chart), PERF-02 table, bottleneck flags, trends over a history
 * database (charts with change points), the per-stage time breakdown, scaling curves and GPU timelines with stage bands.
 * Every string from records, logs or IDs is escaped; SVGs come from vega's own serializer.
 */
import type { SampleRecord } from '../../monitor/records.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import type { BottleneckGroup, StageShare } from '../analyses/bottleneck.ts'
import type { BottleneckFlag } from '../analyses/bottleneck-rules.ts'
import type { Report } from '../analyses/build.ts'
import { capacitySection } from './capacity-html.ts'
import { breakdownSpec, renderSvg, scalingSpec, timelineSpec } from './charts.ts'
import { escapeHtml as h } from './escape.ts'
import { fleetSection } from './fleet-html.ts'
import { fmtMs, fmtPct } from './format.ts'
import { MAX_TABLE_ROWS, table, verdictCell } from './html-table.ts'
import { outcomeNote } from './markdown.ts'
import { perf02Verdict } from './markdown-sections.ts'
import { SPLIT_HEAD, splitCells } from './stage-split.ts'
import { studySection } from './study-html.ts'
import { trendsSection } from './trends-html.ts'
import { verdictLegendHtml } from './verdict-legend.ts'

/** Timelines are drawn for at most this many runs (the first run of each setup first). */
export const MAX_TIMELINES = 6
/** Scaling charts drawn (the tables in scaling.md hold every curve). */
export const MAX_SCALING_CHARTS = 6

const CSS = `body{font:14px/1.45 system-ui,sans-serif;margin:24px auto;max-width:1200px;color:#1b1f24}
table{border-collapse:collapse;margin:8px 0 20px;font-size:13px}th,td{border:1px solid #d0d7de;padding:4px 8px;text-align:left;vertical-align:top}
th{background:#f6f8fa}.pass{color:#1a7f37;font-weight:600}.fail,.failed{color:#cf222e;font-weight:600}
.flag,.inconclusive{color:#9a6700;font-weight:600}.skipped,.no-verdict,.partial{color:#57606a}.note{background:#fff8c5;padding:8px 12px;border:1px solid #d4a72c}
.error{color:#8250df;font-weight:600}dl.legend{display:grid;grid-template-columns:max-content auto;gap:2px 12px;font-size:13px}dl.legend dd{margin:0}
.chart{margin:8px 0 24px}h2{border-bottom:1px solid #d0d7de;padding-bottom:4px;margin-top:32px}`

function suitesSection(report: Report): string {
  const suites = report.suites
  const row = (i: number) => {
    const s = suites[i] as Report['suites'][number]
    return [verdictCell(s.verdict), h(s.kind), h(s.name), h(s.keyFigure ?? s.reason ?? '')]
  }
  return `<h2>Suites</h2>${suites.length ? table(['verdict', 'kind', 'suite', 'key figure / reason'], suites.length, row) : '<p>No result records.</p>'}`
}

function perf02Section(report: Report): string {
  const rows = report.perf02.rows
  const row = (i: number) => {
    const r = rows[i] as Report['perf02']['rows'][number]
    return [
      h(r.recordIds.join(', ')),
      h(r.group),
      h(r.stage),
      String(r.gpu),
      fmtPct(r.utilMeanPct),
      fmtPct(r.utilP50Pct),
      fmtPct(r.utilP5Pct),
      fmtPct(r.smUtilPct),
      fmtPct(r.tensorUtilPct),
      r.provisional ? `<span class="${h(r.verdict)}">${h(perf02Verdict(r))}</span>` : verdictCell(r.verdict),
      h(r.note ?? ''),
    ]
  }
  return `<h2>PERF-02: GPU utilization in the embedding stages</h2>${rows.length ? table(['records', 'setup', 'stage', 'GPU', 'util avg', 'p50', 'p5', 'SM util', 'tensor', 'verdict', 'note'], rows.length, row) : '<p>No GPU-stage monitor data.</p>'}`
}

function bottleneckSection(report: Report): string {
  // A large run has ~10^5 flags: keep only those the table shows, count the rest.
  const shown: { g: BottleneckGroup; f: BottleneckFlag }[] = []
  let total = 0
  for (const g of report.bottleneck.groups) {
    for (const f of g.flags) if (shown.length < MAX_TABLE_ROWS) shown.push({ g, f })
    total += g.flags.length
  }
  const row = (i: number) => {
    const { g, f } = shown[i] as (typeof shown)[number]
    const setup = `${g.recordIds.join(', ')} / ${g.group}${g.provisional ? ' (PROVISIONAL: runs kept so far)' : ''}`
    return [h(setup), h(f.stage), h(f.rule), h(f.evidence), h(f.recommendation)]
  }
  return `<h2>Bottlenecks</h2>${total ? table(['setup', 'stage', 'rule', 'evidence', 'recommendation'], total, row) : '<p>No flags.</p>'}${stageSplitTable(report)}${adviceSection(report)}`
}

/** Each flagged stage once: what to do, and the target's own options for it with what the settings study measured. */
function adviceSection(report: Report): string {
  const advice = report.bottleneck.advice
  if (advice.length === 0) return ''
  const head = ['option', "the target's help", 'what the settings study measured']
  const stages = advice.map((a) => {
    const row = (i: number) => {
      const o = a.options[i] as (typeof a.options)[number]
      return [
        h(`${o.flag}${o.scope === 'stage' ? '' : ` (${o.scope})`}`),
        h(o.help || 'not read'),
        h(o.measured ?? 'not varied'),
      ]
    }
    const options = a.options.length > 0 ? table(head, a.options.length, row) : ''
    return `<p><strong>${h(a.stage)}</strong>: ${h(a.summary)}</p>${options}`
  })
  return `<h3>What to change in the flagged stages</h3>${stages.join('')}`
}

/** Each GPU stage of each group as fixed cost and steady state (the first MAX_TABLE_ROWS, the rest counted). */
function stageSplitTable(report: Report): string {
  const shown: { g: BottleneckGroup; s: StageShare }[] = []
  let total = 0
  for (const g of report.bottleneck.groups)
    for (const s of g.stages) {
      if (!s.gpuStage) continue
      if (shown.length < MAX_TABLE_ROWS) shown.push({ g, s })
      total++
    }
  if (total === 0) return ''
  const row = (i: number) => {
    const { g, s } = shown[i] as (typeof shown)[number]
    return [h(`${g.recordIds.join(', ')} / ${g.group}`), h(s.stage), h(fmtMs(s.durationMs)), ...splitCells(s).map(h)]
  }
  const head = ['setup', 'GPU stage', 'time', ...SPLIT_HEAD]
  return `<h3>GPU stages: fixed cost and steady state</h3>${table(head, total, row)}`
}

async function chartsSection(
  report: Report,
  records: readonly ResultRecord[],
  series: ReadonlyMap<string, readonly SampleRecord[]>,
): Promise<string> {
  const parts: string[] = []
  const groups = report.bottleneck.groups.slice(0, 40)
  if (groups.length > 0)
    parts.push(`<h2>Time per stage</h2><div class="chart">${await renderSvg(breakdownSpec(groups))}</div>`)
  const curves = report.scaling.curves.filter((c) => c.scope === 'total' && c.points.length > 1)
  for (const curve of curves.slice(0, MAX_SCALING_CHARTS))
    parts.push(`<h2>Scaling: ${h(curve.name)}</h2><div class="chart">${await renderSvg(scalingSpec(curve))}</div>`)
  if (curves.length > MAX_SCALING_CHARTS)
    parts.push(
      `<p>Scaling charts drawn for ${MAX_SCALING_CHARTS} of ${curves.length} records; scaling.md lists all.</p>`,
    )
  const candidates = records.flatMap((r) =>
    r.runs.filter((run) => !run.warmup && run.gpu?.logPath).map((run) => ({ r, run })),
  )
  const seen = new Set<string>()
  const firsts = candidates.filter(({ r, run }) => {
    const key = `${r.id}|${run.label.replace(/\s*#\d+$/, '')}`
    if (seen.has(key)) return false
    seen.add(key)
    return true
  })
  let drawn = 0
  for (const { r, run } of firsts) {
    if (drawn >= MAX_TIMELINES) break
    const samples = series.get(run.gpu?.logPath as string)
    const title = `<h3>${h(r.name)}: ${h(run.label)}</h3>`
    if (!samples) {
      parts.push(
        `${title}<p class="note">Monitor log ${h(run.gpu?.logPath ?? '')} could not be read: timeline omitted.</p>`,
      )
      continue
    }
    parts.push(`${title}<div class="chart">${await renderSvg(timelineSpec(run, samples))}</div>`)
    drawn++
  }
  if (firsts.length > drawn)
    parts.push(`<p>Timelines drawn for ${drawn} of ${firsts.length} setups; trace.json holds every run.</p>`)
  return parts.length ? `${parts.join('\n')}` : '<p>No monitor series to chart.</p>'
}

function listSection(title: string, items: string[]): string {
  return items.length ? `<h2>${h(title)}</h2><ul>${items.map((i) => `<li>${h(i)}</li>`).join('')}</ul>` : ''
}

export async function renderHtml(
  report: Report,
  records: readonly ResultRecord[],
  series: ReadonlyMap<string, readonly SampleRecord[]>,
): Promise<string> {
  const note = outcomeNote(report)
  const c = report.counts
  const partial = c.partial > 0 ? `${c.partial} partial, ` : ''
  // The capacity answer first where there is one (the same object as every other report's top), the settings study
  // right after it.
  const study = studySection(report.study)
  const capacity = `${await capacitySection(report.capacity)}${study ? `\n${study}` : ''}`
  // A known answer's record is no answer (capacity/known-answer.ts): alone, its evidence keeps the section's usual place.
  const answerFirst = report.capacity.entries.some((e) => !e.knownAnswer)
  const body = [
    `<h1>VirNucPro benchmark report</h1>`,
    `<p>Run <code>${h(report.runId ?? 'n/a')}</code>, generated ${h(report.generatedAt)}: ${c.records} records (${c.completed} completed, ${partial}${c.failed} failed, ${c.skipped} skipped), ${c.invalid} invalid files.</p>`,
    note ? `<p class="note">${h(note)}</p>` : '',
    answerFirst ? capacity : '',
    suitesSection(report),
    await fleetSection(report.fleet),
    answerFirst ? '' : capacity,
    perf02Section(report),
    bottleneckSection(report),
    await trendsSection(report.trends),
    await chartsSection(report, records, series),
    listSection(
      'Invalid record files',
      report.invalid.map((i) => `${i.file}: ${i.reason}`),
    ),
    listSection(
      'Benchmarks',
      report.benchmarks.map((b) => `${b.name}: mean ${fmtMs(b.latencyMs.mean)} ± ${b.latencyMs.rme.toFixed(2)}%`),
    ),
    listSection('Notes', report.notes),
    // The answer and its evidence first; what each verdict state means last.
    `<h2>What the verdicts mean</h2>${verdictLegendHtml()}`,
  ].join('\n')
  return `<!doctype html>\n<html lang="en"><head><meta charset="utf-8"><title>VirNucPro benchmark report ${h(report.runId ?? '')}</title><style>${CSS}</style></head><body>\n${body}\n</body></html>\n`
}
