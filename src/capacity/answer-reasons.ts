/**
 * Why each verdict an answer leaves undecided is undecided, and what would decide it: one line each, printed right
 * under the answer's sentence and after the line a run prints (issue 44: `FINAL: 6 M sequences take 5.8 h [5.5, 6.1]
 * on 1 GPU (undecided against 10 h)` named no reason, though its decision held one: a PASS needs a third size). The
 * reason is the decision's own (capacity/decisions.ts: not measured, a held-out check missed, runs that cannot support
 * a projection, an interval that straddles the threshold, what a PASS still needs), with the design's stop where that
 * left it open (its budget spent, its looks taken); what would decide it is the design's costed step where it made
 * one, else the decision's general one.
 */
import type { Verdict } from '../results/schema/index.ts'
import type { CapacityStats } from './analyze.ts'
import type { Decision } from './decisions.ts'
import { missedChecks } from './held-out.ts'

/** One verdict the answer leaves undecided. */
export interface OpenVerdict {
  id: string
  /** `PERF-01, 1 GPU, 6,000,000 sequences`. */
  question: string
  why: string
  toDecide: string
}

/** Why a design's stop left verdicts open; a stop on every verdict decided (or every width reached) adds nothing. */
const STOPPED: Readonly<Record<string, string>> = {
  budget: 'the design stopped with its GPU-minute budget spent',
  'job-limit':
    'the design stopped at the job limit (VIRNUCPRO_BENCH_JOB_LIMIT_S): the same command again goes on with it',
  looks: 'the design stopped after its last look',
  undecidable: 'the design stopped: no run it could make was expected to decide it',
  'max-top-ups': 'the design stopped at its most top-up runs',
  'run-failed': 'the design stopped: a run did not complete',
  'no-fit': 'the design stopped: no size model could be fitted',
  'no-ci': 'the design stopped: no interval at 6 M',
  'not-a-line': "the design stopped: a configuration's wall time is not a line",
}

/** What a record written before decisions said what would decide them can be told. */
export const PREDATES_REASONS =
  'measure it again under the decided design (this record was written before verdicts said what would decide them)'

/**
 * The decisions left undecided, each with its reason.
 * @param stop the design's stop, where one ran and stopped (a design still running or none: null)
 * @param missed GPU counts whose held-out check missed: the miss is their reason, whatever the design's stop
 */
export function openFromDecisions(
  decisions: readonly Decision[],
  stop: string | null,
  missed: ReadonlySet<number>,
): OpenVerdict[] {
  return decisions
    .filter((d) => d.state === 'undecided')
    .map((d) => {
      const toDecide = d.needs ?? d.decideBy ?? PREDATES_REASONS
      // A missed check's own words end in what would settle it: said once, as what would decide it.
      const own = d.why.endsWith(`; what would settle it: ${toDecide}`)
        ? d.why.slice(0, -`; what would settle it: ${toDecide}`.length)
        : d.why
      const stopped = stop && !d.from.some((k) => missed.has(k)) ? STOPPED[stop] : undefined
      return { id: d.id, question: d.question, why: stopped ? `${own}; ${stopped}` : own, toDecide }
    })
}

/**
 * A record written before decisions: its inconclusive verdicts among `ids` (the answer's questions), each with its
 * verdict's detail as why.
 */
export function openFromVerdicts(verdicts: readonly Verdict[], ids: ReadonlySet<string>): OpenVerdict[] {
  return verdicts
    .filter((v) => ids.has(v.id) && v.verdict === 'inconclusive')
    .map((v) => ({ id: v.id, question: v.title, why: v.detail, toDecide: PREDATES_REASONS }))
}

/**
 * `PERF-01, 1 GPU, 6,000,000 sequences: UNDECIDED: <why>; to decide it: <what>`, marked PROVISIONAL while the
 * measurement goes on: the one form every output gives an undecided verdict.
 */
export function reasonLine(o: Pick<OpenVerdict, 'question' | 'why' | 'toDecide'>, final: boolean): string {
  return `${o.question}: ${final ? '' : 'PROVISIONAL '}UNDECIDED: ${o.why}; to decide it: ${o.toDecide}`
}

/**
 * The answer's undecided verdicts with their reasons, and how many it judged: its decisions, or in a record written
 * before them its questions' verdicts (PERF-01 at both sizes, k against 1, PERF-02 at 6 M).
 */
export function answerOpen(
  stats: CapacityStats,
  verdicts: readonly Verdict[],
  final: boolean,
  typical: number,
  production: number,
): { open: OpenVerdict[]; judged: number } {
  const decisions = stats.decisions ?? []
  if (decisions.length > 0) {
    // The design's stop says why verdicts stayed open only once it stopped (a refit of a partial record has none).
    const stop = final ? (stats.sequential?.stop ?? null) : null
    const missed = new Set(missedChecks(stats.direct ?? []).keys())
    return { open: openFromDecisions(decisions, stop, missed), judged: decisions.length }
  }
  const ids = new Set(
    stats.configurations.flatMap((c) => [
      `capacity/${c.gpuCount}/perf01/${typical}`,
      `capacity/${c.gpuCount}/perf01/${production}`,
      `capacity/${c.gpuCount}/speedup/${production}`,
      ...c.stages.map((s) => `capacity/${c.gpuCount}/perf02/${s.stage}/${production}`),
    ]),
  )
  const judged = verdicts.filter(
    (v) => ids.has(v.id) && (v.verdict === 'pass' || v.verdict === 'fail' || v.verdict === 'inconclusive'),
  )
  return { open: openFromVerdicts(judged, ids), judged: judged.length }
}
