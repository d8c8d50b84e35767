/**
 * Capacity: the capacity records (src/capacity/analyze.ts) arranged for "will my sample finish in time on k GPUs, and
 * is the k-th GPU worth it": per record, one column per size (the largest measured, then each projected one: the
 * user's own sample where it was, the typical and the production size), one row per configuration, break-even and
 * asymptotic speedup per k against 1 GPU, what was measured and what the CIs cover, and the wall-time curves for the
 * chart. Pure; figures and verdicts are the record's (capacity-rows.ts).
 */
import type { ResultRecord } from '../results/schema/index.ts'
import { type AnswerStatus, type CapacityAnswer, capacityAnswer } from './answer.ts'
import { statusTextOf } from './answer-state.ts'
import type { CapacityStats } from './index.ts'
import { RATE_SOURCE_NAMES } from './index.ts'
import { isKnownAnswer } from './known-answer.ts'
import { recordStatus } from './record-answer.ts'
import { type CapacityComparisonRow, type CapacityConfigRow, comparisonRow, configRow, verdictReader } from './table.ts'

export type {
  BreakEven,
  CapacityCell,
  CapacityComparisonRow,
  CapacityConfigRow,
  Figure,
  StageCell,
  StageParts,
} from './table.ts'

/** What a column's size is: the largest measured one, the user's own sample, or a PERF-01 target. */
export type SizeRole = 'measured' | 'sample' | 'typical' | 'production'

export interface CapacityColumn {
  sequences: number
  role: SizeRole
}

export interface CapacityInput {
  source: string
  /** The first 12 hex digits: enough to tell inputs apart in a table. */
  sha256Prefix: string
  records: number
  /** Mean GPU work per record (bases of stop-free frames, record-work.ts): what sizes are counted in (capacity/runs.ts). */
  workPerRecord: number
  preset: string | null
}

/** One point of a configuration's wall-time curve (ms; CI ends null where the model had no draws). */
export interface CapacityCurvePoint {
  label: string
  gpuCount: number
  sequences: number
  wallMs: number
  lowMs: number | null
  highMs: number | null
}

export interface CapacityEntry {
  /** The answer first (capacity/answer.ts): what every report puts at its top; null where nothing could be fitted. */
  answer: CapacityAnswer | null
  /** The record's one count of runs (a partial record's: kept of planned), with or without an answer. */
  status: AnswerStatus
  /** `FINAL` or `PROVISIONAL (n of m runs)`. */
  statusText: string
  recordId: string
  name: string
  /**
   * A known answer's record (capacity/known-answer.ts): evidence of a check of the size model, shown with its evidence
   * and never as a configuration's capacity answer (no answer line, no place at a report's top).
   */
  knownAnswer: boolean
  state: ResultRecord['state']
  reason: string | null
  input: CapacityInput | null
  /** Records of each measured nested subset, ascending. */
  sizes: number[]
  measuredSequences: number | null
  /** PERF-01's wall-time limit (ms): the line the chart draws. */
  targetMs: number
  columns: CapacityColumn[]
  configurations: CapacityConfigRow[]
  comparisons: CapacityComparisonRow[]
  notFitted: { label: string; reason: string }[]
  covers: string | null
  /** Start-up parts held constant (or not) and why, per configuration. */
  notes: string[]
  curves: CapacityCurvePoint[]
}

export interface CapacityReport {
  entries: CapacityEntry[]
}

function roleOf(sequences: number, measured: number, targets: readonly number[]): SizeRole {
  if (sequences === measured) return 'measured'
  if (sequences === targets[0]) return 'typical'
  if (sequences === targets.at(-1)) return 'production'
  return 'sample'
}

/**
 * What was measured: the analysis's input, else (a partial record whose kept runs fit no model yet) the provenance's,
 * which the run journal holds from the measurement's start.
 */
function inputOf(input: CapacityStats['input'] | undefined, record: ResultRecord): CapacityInput | null {
  const source = input ?? record.provenance.input?.source
  if (!source) return null
  return {
    source: source.source,
    sha256Prefix: source.sha256.slice(0, 12),
    records: source.records,
    workPerRecord: source.workPerRecord,
    preset: source.preset ?? null,
  }
}

/** The nested sizes measured (records): the analysis's, else those the provenance names (a partial record's). */
function sizesOf(stats: Partial<CapacityStats>, record: ResultRecord): number[] {
  if (stats.sizes?.length) return stats.sizes
  const used = record.provenance.input?.used.map((u) => u.records) ?? []
  return [...new Set(used)].sort((a, b) => a - b)
}

/** What the model says about itself (records written before it did lack these fields: nothing then). */
function modelNotes(c: CapacityStats['configurations'][number]): string[] {
  const support = c.support
    ? c.support.supported
      ? []
      : [
          `${c.label}: the runs cannot support a projection, ${c.support.lowerBound ? 'its projections are lower bounds (a time target fails where even their CI is above it, and is otherwise inconclusive)' : 'its projected verdicts are inconclusive'}: ${c.support.problems.join('; ')}${c.support.nextRecords ? `; measure ${c.support.nextRecords.toLocaleString('en-US')} records next` : ''}`,
        ]
    : []
  const dominant = c.at.flatMap((a) => {
    const top = a.dominant?.[0]
    return top
      ? [
          `${c.label}: the CI at ${a.sequences.toLocaleString('en-US')} sequences is mostly ${top.part} (${top.sharePct.toFixed(0)}% of its variance)`,
        ]
      : []
  })
  const own = (c.sharedParts ?? []).filter((p) => !p.shared).map((p) => `${c.label}: '${p.name}' its own: ${p.why}`)
  return [...support, ...dominant.slice(-1), ...own]
}

/** The CPU-stage parts every configuration shares (the same list in each: said once). */
function sharedNote(configs: CapacityStats['configurations']): string[] {
  const shared = (configs[0]?.sharedParts ?? []).filter((p) => p.shared).map((p) => p.name)
  return shared.length
    ? [`fitted once over every configuration's runs (the same work on any GPU count): ${shared.join(', ')}`]
    : []
}

/** Where each stage's steady part was read inside the runs (a record written before there were sources: batch lines). */
function steadyNote(c: CapacityStats['configurations'][number]): string[] {
  const read = (c.steady ?? []).map(
    (s) => `${s.stage} from ${RATE_SOURCE_NAMES[s.source ?? 'batch-lines']} (${s.runs} of ${s.of} runs)`,
  )
  return read.length ? [`${c.label}: steady parts read inside the runs: ${read.join('; ')}`] : []
}

function notesOf(configs: CapacityStats['configurations'], stats: Partial<CapacityStats>): string[] {
  const seq = stats.sequential
  return [
    ...(seq
      ? [
          `sequential design: ${seq.topUps} run(s) added, ${seq.gpuMinutes.toFixed(1)} of ${seq.budgetGpuMinutes} GPU-minutes; stopped: ${seq.stop}${seq.notALine?.length ? ` (not a line: ${seq.notALine.join(', ')})` : ''}`,
          ...(seq.steps ?? []).map(
            (s, i) => `sequential design, step ${i + 1}: ${s.why ?? `${s.kind}, ${s.records} records`}`,
          ),
        ]
      : []),
    ...sharedNote(configs),
    ...configs.flatMap((c) => [
      ...c.constantParts.map(
        (p) => `${c.label}: '${p.name}' ${p.heldConstant ? 'held constant over sizes' : 'fitted as a line'}: ${p.why}`,
      ),
      ...steadyNote(c),
      ...(c.ciProblem ? [`${c.label}: ${c.ciProblem}`] : []),
      ...modelNotes(c),
    ]),
  ]
}

function curvesOf(configs: CapacityStats['configurations']): CapacityCurvePoint[] {
  return configs.flatMap((c) =>
    c.curve
      .filter((p) => Number.isFinite(p.wallMs))
      .map((p) => ({
        label: c.label,
        gpuCount: c.gpuCount,
        sequences: p.sequences,
        wallMs: p.wallMs,
        lowMs: p.low,
        highMs: p.high,
      })),
  )
}

function entryOf(record: ResultRecord): CapacityEntry {
  // The shape is the suite's; a skipped or failed record may hold none of it.
  const stats = record.stats as Partial<CapacityStats>
  const configs = stats.configurations ?? []
  const comparisons = stats.comparisons ?? []
  const targets = stats.targets ?? []
  const measured = stats.measuredSequences ?? null
  const v = verdictReader(record.verdicts, measured ?? Number.NaN)
  const sizes = configs[0]?.at.map((a) => a.sequences) ?? []
  const columns = sizes.map((sequences) => ({ sequences, role: roleOf(sequences, measured ?? Number.NaN, targets) }))
  const status = recordStatus(record)
  const answer = Array.isArray(stats.configurations)
    ? capacityAnswer(stats as CapacityStats, record.verdicts, status)
    : null
  return {
    answer,
    // The answer's status where it has one (its held-out check read: capacity/held-out-status.ts), never the record's
    // state alone (issue 58: an entry read FINAL beside its own answer's UNCHECKED).
    status: answer?.status ?? status,
    statusText: answer?.statusText ?? statusTextOf(status),
    recordId: record.id,
    name: record.name,
    knownAnswer: isKnownAnswer(record.name),
    state: record.state,
    reason: record.reason,
    input: inputOf(stats.input, record),
    sizes: sizesOf(stats, record),
    measuredSequences: measured,
    targetMs: record.thresholds.perf01.targetMs,
    columns,
    configurations: configs.map((c) =>
      configRow(c, comparisons.find((cmp) => cmp.candidate === c.label) ?? null, sizes, v),
    ),
    comparisons: comparisons.map((cmp) => comparisonRow(cmp, v)),
    notFitted: stats.notFitted ?? [],
    covers: stats.covers ?? null,
    notes: notesOf(configs, stats),
    curves: curvesOf(configs),
  }
}

/** Pure: capacity records in, one entry each (other kinds are not read). */
export function analyzeCapacityRecords(records: readonly ResultRecord[]): CapacityReport {
  return { entries: records.filter((r) => r.kind === 'capacity').map(entryOf) }
}
