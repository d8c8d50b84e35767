/**
 * What a settings study (kind `study`, src/study/stats.ts) measured of one option, for the bottleneck report's
 * recommendation: its best value's 6 M hours beside the default's, or that every value of it landed within the
 * default's interval or left the screen as slower ("changes nothing measurable at N records"), or that its outputs
 * were not the default's. Read from the newest study record whose figures read; pure.
 */
import { figureText } from '../../capacity/answer.ts'
import { escapeControls } from '../../platform/one-line.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import type { StudyRow, StudyScreening, StudyStats } from '../../study/stats.ts'
import { readStudyStats, type StudyReadStats } from './study-stats.ts'
import { gpuLabel, lastScreening, millions } from './study-table.ts'

/** The study the recommendations cite: its figures and the options it read from the target's help. */
export interface StudyView {
  recordId: string
  name: string
  /** A partial record (the study stopped mid-way): what it says is provisional. */
  provisional: boolean
  stats: StudyReadStats
  stageOptions: StudyStats['stageOptions']
  stageOptionsProblem: string | null
}

/** The newest study, or why the newest could not be read (no study at all: null). */
export type StudyRead = { state: 'read'; study: StudyView } | { state: 'unreadable'; problem: string } | null

/** How an option's values fared against the default (left the screen as slower: no change to take either). */
export type OptionEffect = 'faster' | 'no-change' | 'outputs-differ' | 'failed' | 'not-judged'

export interface OptionMeasured {
  effect: OptionEffect
  /** The largest screening size its values were judged at (records). */
  records: number
  /** What the study measured, in words. */
  text: string
}

/**
 * The target's options per stage as the newest capacity record read them from its `predict --help` (capacity/suite.ts),
 * for a report without a settings study: the options can be named, not what they change. Null when none holds them.
 */
export function capacityStageOptions(records: readonly ResultRecord[]): StudyStats['stageOptions'] | null {
  const newest = records
    .filter((r) => r.kind === 'capacity')
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((r) => stageOptionsOf(r.stats))
    .find((o) => o !== null && o.length > 0)
  return newest ?? null
}

/** `stageOptions` as recorded, when its shape holds; [] otherwise (the recommendation then says the options are unread). */
function stageOptionsOf(stats: Record<string, unknown>): StudyStats['stageOptions'] | null {
  const list = stats.stageOptions
  if (!Array.isArray(list)) return null
  const ok = list.every(
    (g) =>
      typeof g?.stage === 'string' &&
      Array.isArray(g.options) &&
      g.options.every(
        (o: { flag?: unknown; help?: unknown }) => typeof o?.flag === 'string' && typeof o.help === 'string',
      ),
  )
  return ok ? (list as StudyStats['stageOptions']) : null
}

/** The newest study record (completed or partial) whose figures read; a damaged newest one is named if none reads. */
export function newestStudy(records: readonly ResultRecord[]): StudyRead {
  const studies = records
    .filter((r) => r.kind === 'study' && (r.state === 'completed' || r.state === 'partial'))
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
  let problem: string | null = null
  for (const record of studies) {
    // A study stopped before any figure: it has judged nothing yet to cite (its standings read in the study's table).
    if (record.state === 'partial' && Object.keys(record.stats).length === 0) continue
    const read = readStudyStats(record)
    if ('problem' in read) {
      problem ??= read.problem
      continue
    }
    const stageOptions = stageOptionsOf(record.stats)
    const recorded = record.stats.stageOptionsProblem
    return {
      state: 'read',
      study: {
        recordId: record.id,
        name: escapeControls(record.name),
        provisional: record.state === 'partial',
        stats: read.stats,
        stageOptions: stageOptions ?? [],
        stageOptionsProblem:
          stageOptions === null
            ? 'stats.stageOptions is not a list of options'
            : typeof recorded === 'string'
              ? escapeControls(recorded)
              : null,
      },
    }
  }
  return problem === null ? null : { state: 'unreadable', problem }
}

/**
 * Whether a setting's options name the grid entry `key` (`--opt V`, `--opt=V`, a flag; either side of a switch pair
 * `--x/--no-x`).
 */
const varies = (r: StudyRow, key: string) =>
  key.split('/').some((flag) => r.extraArgs.some((a) => a === flag || a.startsWith(`${flag}=`)))

/** One setting's fate: `records` the largest screening size it ran at; `at6M` when judged on its 6 M answer. */
type Outcome = {
  kind: 'faster' | 'slower' | 'within' | Exclude<OptionEffect, 'faster' | 'no-change'>
  records: number
  phrase: string
  at6M?: boolean
}

const seconds = (s: NonNullable<StudyScreening['wallMs']>) =>
  `${(s.median / 1000).toFixed(1)} s${s.low !== null && s.high !== null ? ` [${(s.low / 1000).toFixed(1)}, ${(s.high / 1000).toFixed(1)}]` : ''}`

/** A setting's last screening against the default's in the same round: faster, slower, or within its interval. */
function screened(r: StudyRow, reference: StudyRow | undefined): Outcome {
  const mine = lastScreening(r)
  const theirs = reference?.screening.find((s) => s.round === mine?.round)
  if (!mine?.wallMs || !theirs?.wallMs)
    return {
      kind: 'not-judged',
      records: mine?.records ?? 0,
      phrase: `${r.label} has no screening figure beside the default's`,
    }
  const [a, b] = [mine.wallMs, theirs.wallMs]
  const where = `at ${mine.records.toLocaleString('en-US')} records (median ${seconds(a)} against the default's ${seconds(b)})`
  if (a.low === null || a.high === null || b.low === null || b.high === null)
    return { kind: 'not-judged', records: mine.records, phrase: `${r.label} not judged ${where}: no interval` }
  if (a.high < b.low) return { kind: 'faster', records: mine.records, phrase: `${r.label} faster ${where}` }
  if (a.low > b.high) return { kind: 'slower', records: mine.records, phrase: `${r.label} slower ${where}` }
  return { kind: 'within', records: mine.records, phrase: `${r.label} within the default's interval ${where}` }
}

/** The best setting's 6 M hours per GPU count beside the default's, and whether they differ at any count. */
function atProduction(r: StudyRow, reference: StudyRow | undefined, production: number): Outcome | null {
  const theirs = new Map((reference?.capacity?.perGpuCount ?? []).map((g) => [g.gpuCount, g.productionH]))
  const pairs = (r.capacity?.perGpuCount ?? [])
    .map((g) => ({ k: g.gpuCount, mine: g.productionH, ref: theirs.get(g.gpuCount) ?? null }))
    .filter((p) => p.mine && p.ref)
  if (pairs.length === 0) return null
  const judged = pairs.filter((p) => [p.mine!.low, p.mine!.high, p.ref!.low, p.ref!.high].every((x) => x !== null))
  const faster = judged.some((p) => (p.mine!.high as number) < (p.ref!.low as number))
  const slower = judged.some((p) => (p.mine!.low as number) > (p.ref!.high as number))
  const hours = pairs.map(
    (p) => `on ${gpuLabel(p.k)} ${figureText(p.mine, 'h')} against the default's ${figureText(p.ref, 'h')}`,
  )
  const flips = r.flips.map((f) => `${f.question}: ${f.from.toUpperCase()} to ${f.to.toUpperCase()}`)
  const phrase = `${r.label}, the study's best: ${millions(production)} ${hours.join(', ')}${flips.length ? `; it flips ${flips.join('; ')}` : ''}`
  // Without intervals on both sides nothing is judged: "within" would claim an overlap nobody measured.
  const kind =
    judged.length === 0 ? 'not-judged' : faster && !slower ? 'faster' : slower && !faster ? 'slower' : 'within'
  return { kind, records: lastScreening(r)?.records ?? 0, phrase, at6M: true }
}

function outcomeOf(r: StudyRow, stats: StudyReadStats, reference: StudyRow | undefined): Outcome {
  const d = r.dropped
  if (d) {
    const at = `in round ${d.round} (${d.records.toLocaleString('en-US')} records)`
    if (d.why === 'slower')
      return { kind: 'slower', records: d.records, phrase: `${r.label} left the screen as slower ${at}` }
    if (d.why === 'outputs-differ')
      return {
        kind: 'outputs-differ',
        records: d.records,
        phrase: `${r.label}: outputs not the default's ${at}: ${d.detail}`,
      }
    return {
      kind: 'failed',
      records: d.records,
      phrase: `${r.label} ${d.why === 'failed' ? 'failed' : 'had no outputs to compare'} ${at}: ${d.detail}`,
    }
  }
  if (r.label === stats.best) return atProduction(r, reference, stats.production) ?? screened(r, reference)
  return screened(r, reference)
}

const LEADS: Record<Exclude<OptionEffect, 'no-change'>, string> = {
  faster: 'faster than the default',
  'outputs-differ': "its outputs are not the default's",
  failed: 'its runs failed',
  'not-judged': 'not judged yet',
}

function effectOf(kinds: ReadonlySet<Outcome['kind']>): OptionEffect {
  if (kinds.has('faster')) return 'faster'
  if ([...kinds].every((k) => k === 'within' || k === 'slower')) return 'no-change'
  if (kinds.has('outputs-differ')) return 'outputs-differ'
  return kinds.has('failed') ? 'failed' : 'not-judged'
}

/** What the study measured of `flag` (one of its grid's options); null when no setting of the study varied it. */
export function measuredOption(stats: StudyReadStats, flag: string): OptionMeasured | null {
  const reference = stats.rows.find((r) => r.isDefault)
  const rows = stats.rows.filter((r) => !r.isDefault && varies(r, flag))
  if (rows.length === 0) return null
  const outcomes = rows.map((r) => outcomeOf(r, stats, reference))
  const effect = effectOf(new Set(outcomes.map((o) => o.kind)))
  const records = Math.max(0, ...outcomes.map((o) => o.records))
  const at6M = outcomes.some((o) => o.at6M) ? ` nor at ${millions(stats.production)}` : ''
  const lead =
    effect === 'no-change'
      ? `changes nothing measurable at ${records.toLocaleString('en-US')} records${at6M}`
      : LEADS[effect]
  return { effect, records, text: `${lead}: ${outcomes.map((o) => o.phrase).join('; ')}` }
}
