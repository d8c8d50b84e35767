/**
 * What the suite recorded about how a faulted run ended (exit class, survivors, GPU memory check), plus an independent
 * look at the process table: every PID the run's tree ever had must be gone now.
 */
import { pidAlive } from '../platform/pid-alive.ts'
import type { MeasuredRun, ResultRecord } from '../results/schema/index.ts'
import { ValidationError } from './verdict-checks.ts'

export interface RunEnding {
  label: string
  exitClass: string
  exitCode: number | null
  signal: string | null
  sawOom: boolean
  reason: string | null
  /** Survivors the runner's cleanup found after SIGKILL; null without a cleanup record. */
  survivors: number | null
  /** `clean`, `held`, `error`, `not-run`, or `none` without a cleanup record. */
  gpuCheck: string
  pids: number[]
}

/**
 * The ending of the first measured run of `record` (warm-ups are never faulted runs).
 * @throws ValidationError when the record holds no measured run.
 */
export function runEnding(record: ResultRecord): RunEnding {
  const measured: MeasuredRun | undefined = record.runs.find((r) => !r.warmup)
  if (!measured) throw new ValidationError(`record '${record.id}' holds no measured run`)
  const run = measured.run
  const check = run.cleanup?.gpuCheck
  return {
    label: measured.label,
    exitClass: run.exitClass,
    exitCode: run.exitCode,
    signal: run.signal,
    sawOom: run.sawOom,
    reason: run.reason,
    survivors: run.cleanup ? run.cleanup.survivors.length : null,
    gpuCheck: check === undefined ? 'none' : typeof check === 'string' ? check : check.state,
    pids: run.pids,
  }
}

/** PIDs of `pids` that still exist (signal 0 probes without sending anything; EPERM means it exists). */
export function livePids(pids: readonly number[]): number[] {
  return pids.filter(pidAlive)
}

/** One line for annotations: `exit class failed (code 1), 0 survivors, GPU check clean, 0 PIDs alive`. */
export function describeEnding(e: RunEnding, alive: readonly number[]): string {
  const how = e.signal ? `signal ${e.signal}` : `code ${e.exitCode ?? 'none'}`
  return `exit class ${e.exitClass} (${how}), ${e.survivors ?? 'unknown'} survivor(s), GPU check ${e.gpuCheck}, ${alive.length} of ${e.pids.length} PID(s) alive`
}
