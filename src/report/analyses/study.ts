/**
 * Settings studies (kind `study`, stats: src/study/stats.ts): per record the answer a planner reads (which setting
 * makes 6 M finish, whether the second GPU pays then, whether its outputs are the default's) as one table
 * (study-table.ts), or one line where there is no table: a measurement stopped before its study had figures, a failed
 * or skipped record, or damaged stats (study-stats.ts names the field). The newest record of each id, newest first.
 * A partial record's status and states read PROVISIONAL. Pure.
 */
import { type AnswerStatus, type Figure, figureText } from '../../capacity/answer.ts'
import { statusTextOf } from '../../capacity/answer-state.ts'
import { recordAnswer, recordStatus } from '../../capacity/record-answer.ts'
import type { DecisionState } from '../../measure/index.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import type { StudyConsensus, StudyDrop, StudyRow, StudyScreening } from '../../study/stats.ts'
import { provisionalStudyStats } from './study-provisional.ts'
import { readStudyStats, type StudyReadStats } from './study-stats.ts'
import { gpuLabel, lastScreening, millions, orderedRows, type StudyTable, studyTable } from './study-table.ts'

export type { StudyTable } from './study-table.ts'

/** One setting's figures, for machines (summary.json, `capacity --json`): the table's rows as numbers. */
export interface StudySettingFigures {
  label: string
  extraArgs: string[]
  isDefault: boolean
  isBest: boolean
  productionH: { gpuCount: number; hours: Figure | null; state: DecisionState | null }[]
  speedups: { gpuCount: number; speedup: Figure | null; threshold: number; state: DecisionState | null }[]
  /**
   * true: the default's outputs within tolerance (the default itself: true, the reference); false: not; null: not
   * compared (no verdict, never equal).
   */
  outputsEqual: boolean | null
  /**
   * The figures behind `outputsEqual` (issue 56): the consensus labels' agreement with its threshold, the IDs, and the
   * score differences beside them (`file` names where they come from); null for the default, for a setting not
   * compared, and in records written before.
   */
  consensus: StudyConsensus | null
  flips: StudyRow['flips']
  dropped: StudyDrop | null
  lastScreening: StudyScreening | null
}

interface StudyEntryBase {
  recordId: string
  name: string
  state: ResultRecord['state']
  createdAt: string
  /** The record's one count of runs: a partial record's kept of planned. */
  status: AnswerStatus
  /** `FINAL` or `PROVISIONAL (n of m runs)`. */
  statusText: string
}

/** A study with its table, or one line saying why there is none. */
export type StudyEntry =
  | (StudyEntryBase & {
      shows: 'table'
      sentence: string
      screenedOn: string
      production: number
      best: string | null
      table: StudyTable
      settings: StudySettingFigures[]
    })
  /** `damaged`: the record's stats cannot be read (the line names the field); its settings' answers judge nothing. */
  | (StudyEntryBase & { shows: 'line'; line: string; damaged?: true })

export interface StudyReport {
  entries: StudyEntry[]
}

function settingFigures(r: StudyRow, best: string | null): StudySettingFigures {
  return {
    label: r.label,
    extraArgs: r.extraArgs,
    isDefault: r.isDefault,
    isBest: r.label === best,
    productionH: (r.capacity?.perGpuCount ?? []).map((g) => ({
      gpuCount: g.gpuCount,
      hours: g.productionH,
      state: g.production,
    })),
    speedups: (r.capacity?.speedups ?? []).map((s) => ({ ...s })),
    outputsEqual: r.isDefault ? true : (r.outputs?.equal ?? null),
    consensus: r.outputs?.consensus ?? null,
    flips: r.flips,
    dropped: r.dropped,
    lastScreening: lastScreening(r),
  }
}

/** `6 M takes 12.2 h [10.7, 14.0] on 1 GPU and 7.1 h [6.0, 8.4] on 2 GPUs` for one setting; '' without figures. */
function hoursWords(r: StudyRow | undefined, production: number): string {
  const figures = (r?.capacity?.perGpuCount ?? []).filter((g) => g.productionH)
  if (figures.length === 0) return ''
  const each = figures.map((g) => `${figureText(g.productionH, 'h')} on ${gpuLabel(g.gpuCount)}`)
  return `${millions(production)} takes ${each.join(' and ')}`
}

/** The study in one sentence: the best setting, its 6 M hours beside the default's, what it flips. */
function sentenceOf(stats: StudyReadStats, statusText: string): string {
  const final = !statusText.startsWith('PROVISIONAL')
  const others = stats.rows.length - 1
  const screened = `${others} setting${others === 1 ? '' : 's'} screened on ${stats.screenedOn}`
  const reference = stats.rows.find((r) => r.isDefault)
  const best = stats.rows.find((r) => r.label === stats.best)
  const defaultHours = hoursWords(reference, stats.production)
  if (!best)
    return final
      ? `${statusText}: of ${screened}, none came through the screen with the default's outputs.`
      : `${statusText}: of ${screened}, none has come through the screen yet.`
  if (best.isDefault)
    return `${statusText}: of ${screened}, none beats the default with the default's outputs${defaultHours ? `; the default: ${defaultHours}` : ''}.`
  const mine = hoursWords(best, stats.production)
  const flips = best.capacity
    ? best.flips.length
      ? `; it decides ${best.flips.length} verdict(s) otherwise than the default`
      : '; it decides every verdict as the default does'
    : ''
  const args = best.extraArgs.length ? ` (${best.extraArgs.join(' ')})` : ''
  return `${statusText}: of ${screened}, the best with the default's outputs is ${best.label}${args}${mine ? `: ${mine}` : ''}${defaultHours ? `; the default: ${defaultHours}` : ''}${flips}.`
}

/** What a record without a table has instead, in one line naming it; null when its stats are there to read. */
function lineOf(record: ResultRecord, statusText: string): string | null {
  if (Object.keys(record.stats).length > 0) return null
  const what = `settings study '${record.name}' (${record.id})`
  if (record.state === 'partial') return `${statusText}: ${what}: no figures yet: ${record.reason ?? 'interrupted'}`
  if (record.state === 'completed') return `${what}: completed without figures (stats empty): no table`
  return `${what}: ${record.state}${record.reason ? `: ${record.reason}` : ''}: no table`
}

/**
 * The study's status: its record's while it runs; once stopped, the weakest of its capacity answers' (issue 58: the
 * study table read FINAL while its capacity answers read UNCHECKED). Each answer read from its own record as every
 * report reads it (capacity/record-answer.ts), else as the study kept it.
 */
function studyStatusText(
  status: AnswerStatus,
  stats: StudyReadStats | null,
  capacityById: ReadonlyMap<string, ResultRecord>,
): string {
  if (!status.final || !stats) return statusTextOf(status)
  const answers = stats.rows.flatMap((r) => {
    if (!r.capacity) return []
    const own = capacityById.get(r.capacity.recordId)
    return [{ label: r.label, text: (own && recordAnswer(own)?.statusText) ?? r.capacity.statusText }]
  })
  const which = (word: string) => answers.filter((a) => a.text.startsWith(word)).map((a) => a.label)
  const missed = which('UNDECIDED')
  if (missed.length > 0) return `UNDECIDED (held-out check missed in the capacity answer of ${missed.join(', ')})`
  const unchecked = which('UNCHECKED')
  if (unchecked.length > 0) return `UNCHECKED (no held-out check in the capacity answer of ${unchecked.join(', ')})`
  return statusTextOf(status)
}

function entryOf(record: ResultRecord, capacityById: ReadonlyMap<string, ResultRecord>): StudyEntry {
  const status = recordStatus(record)
  let statusText = statusTextOf(status)
  const base: StudyEntryBase = {
    recordId: record.id,
    name: record.name,
    state: record.state,
    createdAt: record.createdAt,
    status,
    statusText,
  }
  // A study stopped before its figures: its kept screening runs give the standings so far (PROVISIONAL).
  const provisional = record.state === 'partial' && Object.keys(record.stats).length === 0
  const sofar = provisional ? provisionalStudyStats(record) : null
  const line = sofar ? null : lineOf(record, statusText)
  if (line !== null) return { ...base, shows: 'line', line }
  const read = sofar ? { stats: sofar } : readStudyStats(record)
  if ('problem' in read) return { ...base, shows: 'line', line: read.problem, damaged: true }
  const { stats } = read
  statusText = studyStatusText(status, stats, capacityById)
  return {
    ...base,
    statusText,
    shows: 'table',
    sentence: sentenceOf(stats, statusText),
    screenedOn: stats.screenedOn,
    production: stats.production,
    best: stats.best,
    table: studyTable(stats, status.final),
    settings: orderedRows(stats).map((r) => settingFigures(r, stats.best)),
  }
}

/** The newest record of each id, newest first (a fleet's or a re-run's older copy of a study is not shown twice). */
function newestPerId(records: readonly ResultRecord[]): ResultRecord[] {
  const newest = new Map<string, ResultRecord>()
  for (const r of records) {
    const seen = newest.get(r.id)
    if (!seen || r.createdAt > seen.createdAt) newest.set(r.id, r)
  }
  return [...newest.values()].sort((a, b) => b.createdAt.localeCompare(a.createdAt))
}

/** Pure: the study records among `records` in, one entry each (other kinds are not read). */
export function analyzeStudyRecords(records: readonly ResultRecord[]): StudyReport {
  const capacityById = new Map(records.filter((r) => r.kind === 'capacity').map((r) => [r.id, r]))
  return { entries: newestPerId(records.filter((r) => r.kind === 'study')).map((r) => entryOf(r, capacityById)) }
}

/** One part of a setting's label (engine/grid-entries.ts): `option=value`, a flag given `--x`, or not given `no --x`. */
const LABEL_PART = String.raw`(?:[^\s=,-][^\s=,]*=[^\s,]+|(?:no )?--?[A-Za-z][\w-]*)`
const SETTING_LABEL = new RegExp(`^(${LABEL_PART}(?: ${LABEL_PART})*), `)

/**
 * The setting a capacity record answers for, read from the record itself: a study labels each configuration of a
 * setting's answer `<setting>, <configuration>` (study.ts withOptions), the setting being `option=value` pairs and
 * flags (`--parallel`, `no --parallel`, `--no-persistent-models`), which no configuration of the suites' own is. Null
 * for any other record.
 */
function settingOfRecord(r: ResultRecord): string | null {
  if (r.kind !== 'capacity') return null
  const configs = (r.stats as { configurations?: { label?: unknown }[] } | null)?.configurations
  if (!Array.isArray(configs) || configs.length === 0) return null
  const settings = configs.map((c) =>
    typeof c?.label === 'string' ? (SETTING_LABEL.exec(c.label)?.[1] ?? null) : null,
  )
  return settings.every((x) => x !== null && x === settings[0]) ? settings[0]! : null
}

/**
 * The records a capacity refit of the default reads: a settings study's screening runs and the capacity records of
 * its other settings are answers of their own (the study's table shows them). Pooled into one fit, a setting's runs
 * would stand beside the default's as a second configuration of the same GPU count. Each left out is named in `notes`.
 * A setting's record is known by its study's table, and by its own configurations' labels where the study record is
 * damaged or gone (issue 47: the winner's answer was then read as a second 1-GPU configuration of the default's).
 */
export function withoutStudySettings(records: readonly ResultRecord[]): { records: ResultRecord[]; notes: string[] } {
  const settings = new Map<string, string>()
  for (const r of records.filter((x) => x.kind === 'study')) {
    const read = readStudyStats(r)
    if ('problem' in read) continue
    for (const row of read.stats.rows)
      if (!row.isDefault && row.capacity) settings.set(row.capacity.recordId, `${row.label} of ${r.id}`)
  }
  const notes: string[] = []
  const kept = records.filter((r) => {
    if (r.kind === 'study') {
      if (r.runs.length > 0) notes.push(`${r.id}: a settings study's screening runs left out of the refit`)
      return false
    }
    const own = settingOfRecord(r)
    const setting =
      settings.get(r.id) ?? (own ? `${own} (by its configurations' labels; no readable study names it)` : null)
    if (setting) notes.push(`${r.id}: the capacity answer of setting ${setting}, left out of the default's refit`)
    return !setting
  })
  return { records: kept, notes }
}
