/**
 * One line per record for the terminal and the summary: its overall verdict (the worst of its verdicts, or its state
 * when it did not complete) and its key figure (the figure of that worst verdict, else the median wall time).
 */

import { countedRuns, medianOf } from '../../results/runs.ts'
import { type ResultRecord, VERDICTS, type Verdict, type VerdictValue } from '../../results/schema/index.ts'
import { readStudyStats } from './study-stats.ts'

export type SuiteVerdict = VerdictValue | 'failed' | 'no-verdict' | 'partial'

/** What a suite line's verdict means where it is not a verdict state (those: VERDICT_MEANINGS). */
export const SUITE_LINE_MEANINGS: Readonly<Record<Exclude<SuiteVerdict, VerdictValue>, string>> = {
  failed: 'the record failed: a run it needed did not complete (the reason names the run and its error line)',
  'no-verdict': 'the record completed but judged nothing',
  partial:
    'the measurement was stopped before it finished: the runs it kept are shown, and what they judge is PROVISIONAL (never counted as a pass or a fail); the same command run again continues it',
}

export interface SuiteLine {
  recordId: string
  kind: ResultRecord['kind']
  name: string
  state: ResultRecord['state']
  verdict: SuiteVerdict
  /** e.g. `speedup 1.83x [1.71, 1.95]`; null when there is nothing to show. */
  keyFigure: string | null
  reason: string | null
  counts: Record<VerdictValue, number>
}

/**
 * Worst first: a failure outranks everything; then `error` (nothing measured: the runs failed), which must never hide
 * behind a pass of the checks that did run; a pass only beats skipped.
 */
const SEVERITY: readonly VerdictValue[] = ['fail', 'error', 'inconclusive', 'flag', 'pass', 'skipped']

export function worstVerdict(verdicts: readonly Verdict[]): Verdict | null {
  let worst: Verdict | null = null
  for (const v of verdicts) if (!worst || SEVERITY.indexOf(v.verdict) < SEVERITY.indexOf(worst.verdict)) worst = v
  return worst
}

/** `value unit [low, high]`, compact. */
export function formatFigure(value: number, unit: string | null, ci: { low: number; high: number } | null): string {
  const digits = Math.abs(value) >= 100 ? 0 : Math.abs(value) >= 10 ? 1 : 2
  const u = unit === null ? '' : unit === '%' || unit === 'x' ? unit : ` ${unit}`
  const range = ci ? ` [${ci.low.toFixed(digits)}, ${ci.high.toFixed(digits)}]` : ''
  return `${value.toFixed(digits)}${u}${range}`
}

/**
 * A partial record's figures: its one count of runs (kept of planned, as the capacity answer's status says) and their
 * median wall time; its verdicts, where a refit gave it some, are provisional and judge nothing here.
 */
function partialFigure(record: ResultRecord): string {
  const walls = record.runs.filter((r) => !r.warmup && r.run.exitClass === 'completed').map((r) => r.run.wallMs)
  const wall = medianOf(walls)
  const kept = record.kept
    ? `${record.kept.runs} of ${record.kept.planned} measured run(s) kept`
    : `${walls.length} completed run(s) kept`
  return `${kept}${wall === null ? '' : `, median wall ${formatFigure(wall / 1000, 's', null)}`}`
}

function keyFigure(record: ResultRecord, worst: Verdict | null): string | null {
  if (record.state === 'partial') return partialFigure(record)
  if (worst?.verdict === 'error') return null
  if (worst && worst.value !== null) return `${worst.title}: ${formatFigure(worst.value, worst.unit, worst.ci)}`
  const wall = medianOf(countedRuns([record]).map((r) => r.measured.run.wallMs))
  return wall === null ? null : `median wall ${formatFigure(wall / 1000, 's', null)}`
}

export function suiteLine(record: ResultRecord): SuiteLine {
  const counts = Object.fromEntries(VERDICTS.map((v) => [v, 0])) as Record<VerdictValue, number>
  // Issue 47: a study record whose stats cannot be read printed `PASS study` on the console from verdicts made of the
  // same figures: its line is an error naming the damage, and none of its verdicts counts.
  const damaged = record.kind === 'study' && record.state !== 'partial' ? readStudyStats(record) : null
  if (damaged && 'problem' in damaged)
    return {
      recordId: record.id,
      kind: record.kind,
      name: record.name,
      state: record.state,
      verdict: 'error',
      keyFigure: null,
      reason: damaged.problem,
      counts: { ...counts, error: 1 },
    }
  // A partial record's verdicts (a provisional refit of its kept runs) are never counted as passes or fails.
  if (record.state !== 'partial') for (const v of record.verdicts) counts[v.verdict]++
  const worst = worstVerdict(record.verdicts)
  const verdict: SuiteVerdict =
    record.state === 'failed' || record.state === 'skipped' || record.state === 'partial'
      ? record.state
      : (worst?.verdict ?? 'no-verdict')
  return {
    recordId: record.id,
    kind: record.kind,
    name: record.name,
    state: record.state,
    verdict,
    keyFigure: record.state === 'completed' || record.state === 'partial' ? keyFigure(record, worst) : null,
    // An `error` verdict has no figure: its detail (the failure) is what the line must show.
    reason: record.reason ?? (worst?.verdict === 'error' ? worst.detail : null),
    counts,
  }
}
