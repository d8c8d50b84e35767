/**
 * A settings study as one table a planner reads, in the capacity answer's table model (capacity/answer-table.ts:
 * title, head, rows of text, notes; every layout only chooses its row syntax): one row per setting, the default first
 * and the best next; per GPU count the hours at 6 M with their interval and PERF-01's state; k GPUs against 1 at 6 M
 * with its threshold and state; whether its outputs are the default's; the verdicts it decides otherwise than the
 * default; and, for a setting the screen dropped, the round and why, beside its last screening median. One unit per
 * column, named in its heading. Figures and states are the record's: nothing is judged here. Pure; raw text.
 */

import { figureText } from '../../capacity/answer.ts'
import type { AnswerTable } from '../../capacity/answer-table.ts'
import { decisionCell } from '../../capacity/answer-table.ts'
import { columnDigits, figureCell } from '../../capacity/figure-columns.ts'
import { entryOf, type GridValue, valueWords } from '../../engine/grid-entries.ts'
import type { StudyCapacity, StudyDrop, StudyRow, StudyScreening } from '../../study/stats.ts'
import type { StudyReadStats } from './study-stats.ts'

/** The answer's table without its id (those name the capacity answer's own tables). */
export type StudyTable = Omit<AnswerTable, 'id'>

const SECOND_MS = 1000
const count = (n: number) => Math.round(n).toLocaleString('en-US')
export const millions = (n: number) => (n >= 1e6 ? `${n / 1e6} M` : n >= 1e3 ? `${n / 1e3} K` : String(n))
export const gpuLabel = (k: number) => `${k} GPU${k === 1 ? '' : 's'}`

const DROP_WORDS: Readonly<Record<StudyDrop['why'], string>> = {
  slower: 'in the slower half',
  'outputs-differ': "outputs not the default's",
  failed: 'a run failed',
  'no-outputs': 'no outputs to compare',
}

/** Whether a capacity answer's states read as final: the study's record and the answer itself both stopped. */
const finalOf = (c: StudyCapacity, recordFinal: boolean) => recordFinal && c.statusText === 'FINAL'

/** The default first, the best next, then the rest in the study's order. */
export function orderedRows(stats: StudyReadStats): StudyRow[] {
  const rank = (r: StudyRow) => (r.isDefault ? 0 : r.label === stats.best ? 1 : 2)
  return [...stats.rows].sort((a, b) => rank(a) - rank(b))
}

function settingCell(r: StudyRow, best: string | null): string {
  const isBest = r.label === best
  if (r.isDefault)
    return `${r.label}${r.label === 'default' ? '' : ' (default)'}${isBest ? ' (best: none beats it)' : ''}`
  return `${r.label}${isBest ? ' (best)' : ''}`
}

function hoursCell(r: StudyRow, gpuCount: number, digits: number, final: boolean): string {
  const c = r.capacity
  const at = c?.perGpuCount.find((g) => g.gpuCount === gpuCount)
  if (!c || !at?.productionH) return 'not measured'
  return `${figureText(at.productionH, 'h', digits)} ${decisionCell(at.production, finalOf(c, final))}`
}

function speedupCell(r: StudyRow, gpuCount: number, digits: number, final: boolean): string {
  const c = r.capacity
  const s = c?.speedups.find((x) => x.gpuCount === gpuCount)
  if (!c || !s?.speedup) return 'not measured'
  return `${figureText(s.speedup, 'x', digits)} against ${s.threshold}x: ${decisionCell(s.state, finalOf(c, final))}`
}

/**
 * The default's, not, or not compared: nothing to compare is no verdict, never read as the default's. Either way the
 * figures beside it: the label agreement (and by how much it falls short) and the score differences.
 */
function outputsCell(r: StudyRow): string {
  if (r.isDefault) return 'the reference'
  const o = r.outputs
  if (!o) return 'not compared: no round measured it'
  const at = `at ${count(o.records)} records`
  if (o.equal === null) return `not compared: ${o.detail} (${at})`
  return o.equal ? `yes: ${o.detail} (${at})` : `NO: ${o.detail} (${at})`
}

/** Each state marked by its own answer's finality: the default's (`from`) and the setting's (`to`). */
function verdictsCell(r: StudyRow, reference: StudyCapacity | null, final: boolean): string {
  if (r.isDefault) return 'the reference'
  if (!r.capacity) return 'not measured to the end'
  const [before, after] = [!!reference && finalOf(reference, final), finalOf(r.capacity, final)]
  if (r.flips.length === 0) return `${before && after ? '' : 'PROVISIONAL '}same as default`
  const flips = r.flips.map(
    (f) => `${f.question}: from ${decisionCell(f.from, before)} to ${decisionCell(f.to, after)}`,
  )
  return `flips ${r.flips.length}: ${flips.join('; ')}`
}

function droppedCell(r: StudyRow, rounds: number, final: boolean): string {
  const d = r.dropped
  if (d) return `round ${d.round} of ${rounds} (${count(d.records)} records): ${DROP_WORDS[d.why]}: ${d.detail}`
  if (r.isDefault) return 'never (the reference, in every round)'
  if (r.capacity) return 'no: measured to the end'
  return final ? 'no, yet not measured to the end' : 'PROVISIONAL: still in the screen'
}

/** The setting's figure of the last round it ran in; null when it ran in none. */
export const lastScreening = (r: StudyRow): StudyScreening | null =>
  r.screening.reduce<StudyScreening | null>((last, s) => (last === null || s.round >= last.round ? s : last), null)

function screeningCell(r: StudyRow, digits: number): string {
  const s = lastScreening(r)
  if (!s) return 'not screened'
  const where = `round ${s.round}, ${count(s.records)} records, ${s.runs} run${s.runs === 1 ? '' : 's'}`
  if (!s.wallMs) return `no completed run (${where})`
  const w = s.wallMs
  const ci = { low: w.low === null ? null : w.low / SECOND_MS, high: w.high === null ? null : w.high / SECOND_MS }
  return `${figureCell(w.median / SECOND_MS, ci, digits)} (${where})`
}

/** GPU counts the study's capacity answers hold a figure for, ascending. */
const countsOf = (rows: readonly StudyRow[], of: (c: StudyCapacity) => { gpuCount: number }[]) =>
  [...new Set(rows.flatMap((r) => (r.capacity ? of(r.capacity).map((x) => x.gpuCount) : [])))].sort((a, b) => a - b)

/**
 * The study's table. `final`: whether the record's measurement stopped (a partial record's states read PROVISIONAL,
 * as every other output's do).
 */
export function studyTable(stats: StudyReadStats, final: boolean): StudyTable {
  const rows = orderedRows(stats)
  const at = millions(stats.production)
  const hours = countsOf(rows, (c) => c.perGpuCount)
  const speedups = countsOf(rows, (c) => c.speedups)
  const caps = rows.flatMap((r) => (r.capacity ? [r.capacity] : []))
  const reference = rows.find((r) => r.isDefault)?.capacity ?? null
  const hourDigits = columnDigits(caps.flatMap((c) => c.perGpuCount.map((g) => g.productionH?.value)))
  const speedupDigits = columnDigits(
    caps.flatMap((c) => c.speedups.map((s) => s.speedup?.value)),
    3,
  )
  const secondDigits = columnDigits(
    rows.map((r) => (lastScreening(r)?.wallMs?.median ?? Number.NaN) / SECOND_MS),
    3,
  )
  return {
    title: `Settings against the default at ${count(stats.production)} sequences`,
    head: [
      'setting',
      'options added',
      ...hours.map((k) => `hours at ${at} on ${gpuLabel(k)} [interval], PERF-01`),
      ...speedups.map((k) => `${gpuLabel(k)} against 1 at ${at} (speedup, x) [interval], threshold`),
      OUTPUTS_HEAD,
      'verdicts against the default',
      'dropped from the screen',
      'last screening median wall time (s) [interval]',
    ],
    rows: rows.map((r) => [
      settingCell(r, stats.best),
      r.extraArgs.length ? r.extraArgs.join(' ') : 'none',
      ...hours.map((k) => hoursCell(r, k, hourDigits, final)),
      ...speedups.map((k) => speedupCell(r, k, speedupDigits, final)),
      outputsCell(r),
      verdictsCell(r, reference, final),
      droppedCell(r, stats.rounds.length, final),
      screeningCell(r, secondDigits),
    ]),
    notes: studyNotes(stats),
  }
}

/** The column saying whether a setting's outputs are the default's. */
export const OUTPUTS_HEAD = "outputs the default's (consensus labels)"

/** The grid entry in words: `--esm-batch-size 8192, 16384, not given`, `--parallel: --parallel, no --parallel`. */
function gridWords(key: string, values: readonly GridValue[]): string {
  const entry = entryOf(key, values)
  if ('problem' in entry) return `${key} ${values.map(String).join(', ')}`
  const words = values.map((v) => valueWords(entry, v)).join(', ')
  return entry.kind === 'value' ? `${key} ${words}` : `${key}: ${words}`
}

/** What the outputs column means: the consensus rule with the record's threshold, or an older record's own rule. */
function outputsNote(stats: StudyReadStats): string {
  const judged = stats.rows.flatMap((r) => (r.outputs?.consensus ? [r.outputs.consensus] : []))
  const never = "not compared: nothing to compare on one side, no verdict (never counted as the default's)"
  if (judged.length === 0 && stats.rows.some((r) => !r.isDefault && r.outputs?.equal != null))
    return `outputs the default's: judged as the study that wrote this record judged them (its predictions within the equivalence tolerance); ${never}`
  const bar = judged[0] ? `${Number((judged[0].minAgreement * 100).toPrecision(6))}%` : 'the threshold'
  return `outputs the default's: the setting's consensus labels (prediction_results_highestscore.csv, Is_Virus per Modified_ID) against the default's on the same input: the same IDs, agreeing at least ${bar} (thresholds study.minConsensusAgreement), the score differences reported beside them, not judged; ${never}`
}

/** The grid, the rounds, and the terms the table uses. */
function studyNotes(stats: StudyReadStats): string[] {
  const grid = Object.entries(stats.grid).map(([option, values]) => gridWords(option, values))
  const rounds = stats.rounds.map(
    (r) => `round ${r.round} at ${count(r.records)} records: ${r.settings.length} setting(s)`,
  )
  const same = stats.sameAsDefault
  return [
    ...(grid.length ? [`grid: ${grid.join('; ')}`] : []),
    ...(same > 0 ? [`${same} grid point(s) repeat the default's own options: measured once, as the default`] : []),
    ...(stats.defaultsUnknown ?? []),
    ...(rounds.length ? [`screened on ${stats.screenedOn} by successive halving: ${rounds.join('; ')}`] : []),
    outputsNote(stats),
    'verdicts against the default: the capacity decisions the setting decides otherwise than the default, both measured to the end',
  ]
}
