/**
 * The capacity answer as one table model (capacity/answer.ts in, rows of text out), laid out by every output the
 * same way: markdown, HTML and terminal only choose their row syntax. Answer first (status, the sentence), then the
 * evidence: time per GPU count at 45 K and 6 M, k GPUs against 1, PERF-02 per stage, time by stage at 6 M (the stage
 * that holds 6 M back, named), what to measure more of, memory, the design and what its intervals promise, every
 * decision with why, and the definitions of the terms used. One unit per column, named in its heading (hours for a
 * projected time). A provisional answer's decisions and verdicts read PROVISIONAL, never a final PASS or FAIL. Pure;
 * raw text: the layouts escape.
 */
import type { DecisionState } from '../measure/index.ts'
import type { VerdictValue } from '../results/schema/index.ts'
import { type CapacityAnswer, type Figure, type GpuAnswer, notMeasuredText } from './answer.ts'
import { reasonLine } from './answer-reasons.ts'
import { decisionWord } from './decisions.ts'
import { columnDigits, figureCell } from './figure-columns.ts'
import { uncheckedLine } from './held-out-status.ts'

export type AnswerTableId = 'time' | 'speedup' | 'perf02' | 'stages' | 'measure-more' | 'memory' | 'direct'

export interface AnswerTable {
  id: AnswerTableId
  title: string
  head: string[]
  rows: string[][]
  /** Lines under the table: what it names (the stage that holds 6 M back) and the terms it uses. */
  notes: string[]
}

export interface AnswerView {
  /** The sentence's head: `FINAL (design finished: 1 of 4 verdicts undecided)`, `PROVISIONAL (n of m runs)`. */
  status: string
  sentence: string
  /** Each undecided verdict: why, and what would decide it (capacity/answer-reasons.ts); laid out under the sentence. */
  reasons: string[]
  tables: AnswerTable[]
  /** The design's state, or why there is none; then what the intervals promise. */
  design: string
  guarantee: string
  /** Each verdict in scope: its question, its state (marked provisional where it is), why, and what would decide it. */
  decisions: string[]
  definitions: string[]
}

const count = (n: number) => Math.round(n).toLocaleString('en-US')
const millions = (n: number) => (n >= 1e6 ? `${n / 1e6} M` : n >= 1e3 ? `${n / 1e3} K` : String(n))

/** A decision as every output prints it: a provisional answer's marked so, never a final PASS or FAIL. */
export function decisionCell(state: DecisionState | null, final: boolean): string {
  if (state === null) return 'not judged'
  return final ? decisionWord(state) : `PROVISIONAL ${decisionWord(state)}`
}

/** A verdict of a provisional record (memory, the suite's own): marked as the decisions are. */
export function verdictCell(verdict: VerdictValue | null, final: boolean): string {
  if (verdict === null) return 'not judged'
  return final ? verdict.toUpperCase() : `PROVISIONAL ${verdict.toUpperCase()}`
}

/** A column of figures at one set of digits (three significant digits for its smallest value). */
function figures(list: readonly (Figure | null)[], max = 4): (f: Figure | null) => string {
  const digits = columnDigits(
    list.map((f) => f?.value),
    max,
  )
  return (f) => (f ? figureCell(f.value, f, digits) : 'not measured')
}

function timeTable(a: CapacityAnswer, level: string): AnswerTable {
  const [typical, production] = [figures(a.gpus.map((g) => g.typicalH)), figures(a.gpus.map((g) => g.productionH))]
  const final = a.status.final
  return {
    id: 'time',
    title: `Time per GPU count (hours; PERF-01: within ${a.limitH} h)`,
    head: [
      'GPUs',
      `hours at ${count(a.typical)} [${level}]`,
      `PERF-01 at ${count(a.typical)}`,
      `hours at ${count(a.production)} [${level}]`,
      `PERF-01 at ${count(a.production)}`,
    ],
    rows: a.gpus.map((g) => [
      g.label,
      typical(g.typicalH),
      decisionCell(g.typical, final),
      production(g.productionH),
      decisionCell(g.production, final),
    ]),
    notes: a.notMeasured.length ? [`${notMeasuredText(a)}.`] : [],
  }
}

function speedupTable(a: CapacityAnswer, level: string): AnswerTable {
  const speedup = figures(
    a.comparisons.map((c) => c.speedup),
    3,
  )
  return {
    id: 'speedup',
    title: `k GPUs against 1 at ${count(a.production)} sequences (speedup, x)`,
    head: ['GPUs', `speedup against 1 GPU [${level}]`, 'threshold (x)', 'decision'],
    rows: a.comparisons.map((c) => [
      c.mixed ?? a.gpus.find((g) => g.gpuCount === c.gpuCount)?.label ?? `${c.gpuCount} GPUs`,
      speedup(c.speedup),
      `>= ${c.threshold}`,
      decisionCell(c.state, a.status.final),
    ]),
    notes: [
      ...a.definitions.filter((d) => /^(speedup|PERF-03)/.test(d)),
      ...(a.comparisons.some((c) => c.mixed)
        ? [
            'mixed architectures: the k-GPU configuration ran another architecture than its 1-GPU baseline (the row says which is which); not the like-against-like speedup',
          ]
        : []),
    ],
  }
}

function perf02Table(a: CapacityAnswer, level: string): AnswerTable {
  const rows = a.gpus.flatMap((g) => g.utilization.map((u) => ({ g, u })))
  const pct = figures(
    rows.map((r) => r.u.pct),
    1,
  )
  const min = a.decisions.find((d) => d.kind === 'utilization')?.threshold ?? 80
  return {
    id: 'perf02',
    title: `PERF-02 per GPU stage at ${count(a.production)} sequences (utilization, %)`,
    head: ['GPUs', 'GPU stage', `utilization (%) [${level}]`, `PERF-02 (>= ${min}%)`],
    rows: rows.map(({ g, u }) => [g.label, u.stage, pct(u.pct), decisionCell(u.state, a.status.final)]),
    notes: a.definitions.filter((d) => d.startsWith('PERF-02')),
  }
}

/** `On 1 GPU, ESM-2 holds 6 M back: 4.34 h of 5.47 h (79%).` */
function holdsBack(g: GpuAnswer, production: number): string[] {
  const top = g.stages[0]
  if (!top || !g.productionH) return []
  const d = columnDigits([top.hours.value, g.productionH.value], 3)
  return [
    `On ${g.label}, ${top.stage} holds ${millions(production)} back: ${top.hours.value.toFixed(d)} h of ${g.productionH.value.toFixed(d)} h (${top.sharePct.toFixed(0)}%).`,
  ]
}

function stagesTable(a: CapacityAnswer, level: string): AnswerTable {
  const rows = a.gpus.flatMap((g) => g.stages.map((s) => ({ g, s })))
  const hours = figures(rows.map((r) => r.s.hours))
  return {
    id: 'stages',
    title: `Time by stage at ${count(a.production)} sequences (hours)`,
    head: ['GPUs', 'stage', `hours [${level}]`, 'share of the wall time (%)'],
    rows: rows.map(({ g, s }) => [g.label, s.stage, hours(s.hours), s.sharePct.toFixed(1)]),
    notes: a.gpus.flatMap((g) => holdsBack(g, a.production)),
  }
}

function measureMoreTable(a: CapacityAnswer): AnswerTable {
  return {
    id: 'measure-more',
    title: 'What to measure more of',
    head: ['GPUs', 'what to measure more of', `share of the ${millions(a.production)} interval's variance (%)`],
    rows: a.gpus.map((g) => [g.label, g.measureMore?.part ?? 'n/a', g.measureMore?.sharePct.toFixed(0) ?? 'n/a']),
    notes: a.definitions.filter((d) => d.startsWith('what to measure more of')),
  }
}

const NOT_SUPPORTED = 'not supported by the sizes measured'

function memoryTable(a: CapacityAnswer, level: string): AnswerTable {
  const [host, gpu] = [figures(a.gpus.map((g) => g.memory.hostGiB)), figures(a.gpus.map((g) => g.memory.gpuGiB))]
  const proc = figures(a.gpus.map((g) => g.memory.processGiB ?? null))
  const final = a.status.final
  return {
    id: 'memory',
    title: `Memory at ${count(a.production)} sequences (GiB)`,
    head: [
      'GPUs',
      `host memory of the pipeline's processes (GiB) [${level}]`,
      'fits the host',
      `its largest process (GiB) [${level}]`,
      `memory of one GPU (GiB) [${level}]`,
      'fits the GPU',
    ],
    rows: a.gpus.map((g) => [
      g.label,
      g.memory.hostUnsupported ? NOT_SUPPORTED : host(g.memory.hostGiB),
      verdictCell(g.memory.host, final),
      g.memory.process === undefined
        ? 'not recorded'
        : g.memory.processWhy
          ? NOT_SUPPORTED
          : proc(g.memory.processGiB ?? null),
      g.memory.gpuUnsupported ? NOT_SUPPORTED : gpu(g.memory.gpuGiB),
      verdictCell(g.memory.gpu, final),
    ]),
    // Each "not supported" with its own why (issue 58: the note said "the verdict says why", and no output carried it).
    notes: a.gpus.flatMap((g) => [
      ...(g.memory.hostUnsupported ? [`${g.label}, host memory: ${g.memory.hostWhy ?? NOT_SUPPORTED}`] : []),
      ...(g.memory.gpuUnsupported ? [`${g.label}, GPU memory: ${g.memory.gpuWhy ?? NOT_SUPPORTED}`] : []),
      ...(g.memory.processWhy ? [`${g.label}, its largest process: ${g.memory.processWhy}`] : []),
    ]),
  }
}

/** The held-out check: a size run directly against the projection of a fit that never saw it (FINAL needs it inside). */
function directTable(a: CapacityAnswer, level: string): AnswerTable {
  const projected = figures(a.direct.map((d) => d.projectedH))
  const measured = figures(a.direct.map((d) => ({ value: d.measuredH, low: null, high: null })))
  return {
    id: 'direct',
    title: 'The held-out check: sizes run directly, against the projection of a fit that never saw them (hours)',
    head: [
      'GPUs',
      'records',
      'runs',
      'measured (h, median)',
      `projected (h) [${level}]`,
      'error (%)',
      'inside the interval',
    ],
    rows: a.direct.map((d) => [
      d.label,
      count(d.records),
      String(d.runs),
      measured({ value: d.measuredH, low: null, high: null }),
      projected(d.projectedH),
      d.errorPct === null ? 'n/a' : d.errorPct.toFixed(1),
      d.insideCi === null ? 'n/a' : d.insideCi ? 'yes' : 'NO',
    ]),
    notes: ['error: the projection over the measured median, less 1; the fit never saw these runs'],
  }
}

function designLine(a: CapacityAnswer): string {
  const d = a.design
  const misfit = a.misfit.map((m) => `${m.label}: ${m.text}`).join('; ')
  const more = `${a.sizes ? ` ${a.sizes}` : ''}${misfit ? ` Model error out of sample: ${misfit}.` : ''}`
  if (!d)
    return a.status.final
      ? `Design: none recorded (a measurement judged once, at its end).${more}`
      : `Design: not stopped (the measurement was interrupted or is still running): this answer is refitted from the runs kept so far, and the next run may change it.${more}`
  // The design's budget is the measurement's less what the held-out check keeps: a fraction of a minute.
  return `Design: rule ${d.rule}; stopped: ${d.stop}; ${d.looks} of ${d.maxLooks} looks; ${d.gpuMinutes.toFixed(1)} of ${Number(d.budget.toFixed(1))} GPU-minutes of budget.${more}`
}

/** A decision in words; an undecided one as its reason line says it (why, and what would decide it). */
function decisionLine(d: CapacityAnswer['decisions'][number], a: CapacityAnswer): string {
  const open = a.open.find((o) => o.id === d.id)
  if (open) return reasonLine(open, a.status.final)
  return `${d.question}: ${decisionCell(d.state, a.status.final)}: ${d.why}${d.needs ? `; to decide it: ${d.needs}` : ''}`
}

const EMPTY = new Set(['n/a', 'not measured', 'not judged', 'not recorded'])
/** A table with a figure in some row (records written before memory or stage times were kept have none: not shown). */
const holdsFigures = (t: AnswerTable) => t.rows.some((r) => r.slice(1).some((c) => !EMPTY.has(c)))

/** The view every output lays out. */
export function answerView(a: CapacityAnswer): AnswerView {
  const level = a.ciText
  return {
    status: a.headline,
    sentence: a.sentence,
    // Why the answer is UNCHECKED and how to check it, before the open verdicts: every output says it (issue 58).
    reasons: [...a.unchecked.map(uncheckedLine), ...a.open.map((o) => reasonLine(o, a.status.final))],
    tables: [
      timeTable(a, level),
      speedupTable(a, level),
      perf02Table(a, level),
      stagesTable(a, level),
      measureMoreTable(a),
      memoryTable(a, level),
      directTable(a, level),
    ].filter(holdsFigures),
    design: designLine(a),
    guarantee: `Guarantee: ${a.guarantee}.`,
    decisions: a.decisions.map((d) => decisionLine(d, a)),
    definitions: a.definitions,
  }
}

/** The parts of the view one report shows (bottleneck.md: the stages; perf02.md: PERF-02), in the view's order. */
export const tablesOf = (view: AnswerView, ids: readonly AnswerTableId[]): AnswerTable[] =>
  view.tables.filter((t) => ids.includes(t.id))
