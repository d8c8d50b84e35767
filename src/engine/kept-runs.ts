/**
 * Which finished runs a measurement may reuse, and keeping each run the moment it ends (the store is
 * src/results/run-journal.ts). A kept run stands for the run of the same label only when it completed and its key
 * equals the one the run would have now; anything else (a failed or timed-out run, a run of another key, a file cut
 * short, a folder a kill left without `run.json`) is set aside beside it, kept for its logs, and measured again, with
 * one line saying why. Nothing finished is measured twice; nothing stale is reused.
 */
import os from 'node:os'
import { runRefusal } from '../results/run-acceptance.ts'
import { readRunEntry, setAside, writeRunEntry } from '../results/run-journal.ts'
import type { RunKey } from '../results/run-key.ts'
import type { MeasuredBy, RunEntry } from '../results/schema/run-entry.ts'
import { JOURNAL_FORMAT } from '../results/schema/run-entry.ts'
import type { RunObservation } from './observe-run.ts'

/** A run the journal gave back: the observation, and who measured it (another invocation, or this one). */
export interface KeptRun {
  observation: RunObservation
  measuredBy: MeasuredBy
}

export type KeptRunOutcome =
  | { state: 'kept'; kept: KeptRun }
  /** Nothing usable: measure the run (again). `why` says why an earlier attempt is not reused; null: there was none. */
  | { state: 'measure'; why: string | null }

/** This process as the measurer of a run, for `invocation`. */
export function measuredByThisProcess(invocation: string): MeasuredBy {
  return { invocation, host: os.hostname(), pid: process.pid }
}

function observationOf(entry: RunEntry): RunObservation | null {
  const x = entry.extras as Partial<Record<keyof RunObservation, unknown>>
  const lists = [x.esm2Batches, x.esm2Completions, x.memory]
  if (!lists.every(Array.isArray)) return null
  if (!(x.monitorProblem === null || typeof x.monitorProblem === 'string')) return null
  if (typeof x.versions !== 'object' || x.versions === null) return null
  return {
    measured: entry.measured,
    esm2Batches: x.esm2Batches as RunObservation['esm2Batches'],
    esm2Completions: x.esm2Completions as RunObservation['esm2Completions'],
    memory: x.memory as RunObservation['memory'],
    monitorProblem: x.monitorProblem as string | null,
    versions: x.versions as Record<string, string>,
  }
}

/**
 * The kept run in `runDir` when it can stand for this run; else the folder is set aside (so the run is measured in a
 * clean one) and the outcome says why.
 */
export async function takeKeptRun(runDir: string, key: RunKey): Promise<KeptRunOutcome> {
  const reading = await readRunEntry(runDir)
  let why: string | null = null
  if (reading.state === 'kept') {
    const observation = observationOf(reading.entry)
    why = observation ? runRefusal(reading.entry, key, true) : 'its entry lacks the run observation'
    if (observation && why === null)
      return { state: 'kept', kept: { observation, measuredBy: reading.entry.measuredBy } }
  } else if (reading.state === 'unreadable') why = `its run.json is unreadable (${reading.reason})`
  const aside = await setAside(runDir)
  if (aside === null) return { state: 'measure', why: null }
  return { state: 'measure', why: why ?? 'it was in flight when its invocation stopped (no run.json)' }
}

/** Keeps a finished run (completed or not) in `runDir`, atomically. */
export async function keepRun(
  runDir: string,
  key: RunKey,
  observation: RunObservation,
  measuredBy: MeasuredBy,
): Promise<void> {
  const { measured, ...extras } = observation
  await writeRunEntry(runDir, {
    format: JOURNAL_FORMAT,
    key,
    measured,
    extras,
    measuredBy,
    finishedAt: new Date().toISOString(),
  })
}
