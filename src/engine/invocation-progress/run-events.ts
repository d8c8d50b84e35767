/**
 * Every measurement's plan and every run, announced as they happen to whoever listens in this process. The gpu
 * project's workers write them to the invocation's progress ledger (benchmarks/support/run-ledger.ts), from which the
 * run-lines reporter says after each run where the whole invocation stands (reporters/run-lines.ts). A process-wide
 * hook rather than an option of measureInterleaved: every measurement goes through it (a suite, a validation check, a
 * capacity probe, a bench), so none can be left out by a caller that did not pass an option along.
 */

/** A warm-up (kept, never counted) or a measured run. */
export type RunPhase = 'warm-up' | 'run'

/** One arm of a measurement as planned when it opens: its warm-ups and its measured runs (at most; at least `minRuns`). */
export interface PlannedArm {
  label: string
  warmups: number
  runs: number
  minRuns: number
}

/**
 * - `plan`: a measurement opens with its arms.
 * - `start`: a run starts measuring (never for a run the journal gives back).
 * - `run`: a run ended: measured, or given back by the run journal (`reused`: kept by an earlier invocation, or shared
 *   with an earlier measurement of this one). `n` counts the arm's runs of that phase (warm-ups apart).
 * - `end`: the measurement stopped (its plan, or an adaptive stop, or a failed arm): nothing more of it will run.
 */
export type RunEvent =
  | { type: 'plan'; measurement: string; arms: PlannedArm[] }
  | { type: 'start'; measurement: string; arm: string; phase: RunPhase; n: number }
  | {
      type: 'run'
      measurement: string
      arm: string
      phase: RunPhase
      n: number
      wallMs: number
      exitClass: string
      reused: 'earlier' | 'shared' | null
    }
  | { type: 'end'; measurement: string }

export type RunListener = (event: RunEvent) => void

const listeners = new Set<RunListener>()

/** Listens to every run of this process; returns the function that stops listening. */
export function watchRuns(listener: RunListener): () => void {
  listeners.add(listener)
  return () => {
    listeners.delete(listener)
  }
}

/** Tells every listener. A listener's errors are its own to catch: a run is never lost to one. */
export function announceRun(event: RunEvent): void {
  for (const listener of listeners) listener(event)
}

let measurements = 0

/** An id for one measurement, unique within this process (the ledger's lines carry the worker's file beside it). */
export function newMeasurementId(): string {
  measurements += 1
  return `${process.pid}-${measurements}`
}
