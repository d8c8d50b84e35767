/**
 * When two records, or two kept runs, are the same measurement: the same runs by label, start and log. A finished
 * run run again (a pinned VIRNUCPRO_BENCH_RUN_ID requeued after it finished) reuses every kept run and would write
 * its record a second time; the store and the readers tell such a copy by this.
 */
import type { ResultRecord } from './schema/index.ts'

type Measured = ResultRecord['runs'][number]

/** `<id>` or `<id>-<n>`: the file names the store gives a record of that id. */
export const isRecordOf = (recordId: string, id: string) =>
  recordId === id || (recordId.startsWith(`${id}-`) && /^\d+$/.test(recordId.slice(id.length + 1)))

/** One run's identity: its label, when it started, and the log it wrote. */
export function runIdentity(run: Measured): string {
  return `${run.label}\u0000${run.run.logPath}\u0000${run.run.startedAt}`
}

/** Whether two records hold the same runs (none of either measured on its own). */
export function sameRuns(a: Pick<ResultRecord, 'runs'>, b: Pick<ResultRecord, 'runs'>): boolean {
  if (a.runs.length !== b.runs.length || a.runs.length === 0) return false
  return a.runs.every((run, i) => runIdentity(run) === runIdentity(b.runs[i]!))
}
