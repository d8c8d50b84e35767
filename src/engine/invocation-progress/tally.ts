/**
 * Where an invocation stands, folded from its progress ledger line by line (ledger.ts): each measurement's arms with
 * the runs planned and ended, the wall times measured per file and arm, the runs measured and given back, the files
 * started and ended, and the run in flight. What the lines after each run and the forecast read (forecast.ts).
 */
import type { LedgerLine } from './ledger.ts'
import type { RunPhase } from './run-events.ts'

export interface ArmProgress {
  label: string
  /** Planned warm-ups and measured runs (at most: an adaptive stop may end sooner; `minRuns` at least). */
  planned: Record<RunPhase, number>
  minRuns: number
  /** Runs ended so far, measured or given back by the run journal. */
  ended: Record<RunPhase, number>
}

export interface MeasurementProgress {
  file: string
  arms: Map<string, ArmProgress>
  /** Nothing more of it will run. */
  stopped: boolean
}

export interface Tally {
  measurements: Map<string, MeasurementProgress>
  /** Wall times (ms) per `file\0arm` and phase: runs measured here and runs kept by an earlier invocation. */
  wallsMs: Map<string, Record<RunPhase, number[]>>
  /** Runs measured by this invocation (warm-ups included). */
  measured: number
  /** Runs given back by the run journal: kept by an earlier invocation, shared with an earlier measurement of this one. */
  reused: { earlier: number; shared: number }
  filesStarted: Set<string>
  filesEnded: Set<string>
  /** When each file started (ms since the epoch), and how long each ended file took (ms). */
  fileStartsAt: Map<string, number>
  fileSpansMs: Map<string, number>
  /** The run being measured now, and since when (ms since the epoch). */
  inFlight: { file: string; measurement: string; arm: string; phase: RunPhase; n: number; sinceMs: number } | null
}

export function newTally(): Tally {
  return {
    measurements: new Map(),
    wallsMs: new Map(),
    measured: 0,
    reused: { earlier: 0, shared: 0 },
    filesStarted: new Set(),
    filesEnded: new Set(),
    fileStartsAt: new Map(),
    fileSpansMs: new Map(),
    inFlight: null,
  }
}

export const wallKey = (file: string, arm: string) => `${file}\u0000${arm}`

/** The arm a line names, or null for a measurement whose plan the ledger does not hold. */
export function armOf(t: Tally, measurement: string, arm: string): ArmProgress | null {
  return t.measurements.get(measurement)?.arms.get(arm) ?? null
}

function endRun(t: Tally, line: Extract<LedgerLine, { type: 'run' }>): void {
  const arm = armOf(t, line.measurement, line.arm)
  if (arm) {
    arm.ended[line.phase] += 1
    // An arm whose run did not complete is measured no further (measure-configuration.ts): its plan is what ended.
    if (line.exitClass !== 'completed') arm.planned = { ...arm.ended }
  }
  if (line.reused === 'shared') t.reused.shared += 1
  else {
    if (line.reused === 'earlier') t.reused.earlier += 1
    else t.measured += 1
    // A shared run's time is counted where it was measured; a kept run's is this host's time for that arm.
    const key = wallKey(line.file, line.arm)
    const walls = t.wallsMs.get(key) ?? { 'warm-up': [], run: [] }
    walls[line.phase].push(line.wallMs)
    t.wallsMs.set(key, walls)
  }
  if (t.inFlight?.measurement === line.measurement && t.inFlight.arm === line.arm) t.inFlight = null
}

function stop(m: MeasurementProgress): void {
  m.stopped = true
  for (const arm of m.arms.values()) arm.planned = { ...arm.ended }
}

/** Folds one ledger line into the tally. */
export function applyLine(t: Tally, line: LedgerLine): void {
  switch (line.type) {
    case 'file-start':
      t.filesStarted.add(line.file)
      t.fileStartsAt.set(line.file, line.at)
      return
    case 'file-end': {
      t.filesEnded.add(line.file)
      const start = t.fileStartsAt.get(line.file)
      if (start !== undefined && line.at > start) t.fileSpansMs.set(line.file, line.at - start)
      // A measurement whose end never came (its test threw past it) runs no more once its file has ended.
      for (const m of t.measurements.values()) if (m.file === line.file) stop(m)
      if (t.inFlight?.file === line.file) t.inFlight = null
      return
    }
    case 'plan':
      t.measurements.set(line.measurement, {
        file: line.file,
        stopped: false,
        arms: new Map(
          line.arms.map((a) => [
            a.label,
            {
              label: a.label,
              planned: { 'warm-up': a.warmups, run: a.runs },
              minRuns: a.minRuns,
              ended: { 'warm-up': 0, run: 0 },
            },
          ]),
        ),
      })
      return
    case 'start':
      t.inFlight = { ...line, sinceMs: line.at }
      return
    case 'run':
      endRun(t, line)
      return
    case 'end': {
      const m = t.measurements.get(line.measurement)
      if (!m) return
      stop(m)
      if (t.inFlight?.measurement === line.measurement) t.inFlight = null
    }
  }
}

/** Runs an arm has still to end (given back or measured) as planned now. */
export function armRunsLeft(arm: ArmProgress): Record<RunPhase, number> {
  return {
    'warm-up': Math.max(0, arm.planned['warm-up'] - arm.ended['warm-up']),
    run: Math.max(0, arm.planned.run - arm.ended.run),
  }
}

/** Runs this invocation has measured and has still to run, of the measurements opened so far. */
export function runsPlannedSoFar(t: Tally): number {
  let left = 0
  for (const m of t.measurements.values())
    for (const arm of m.arms.values()) {
      const l = armRunsLeft(arm)
      left += l['warm-up'] + l.run
    }
  return t.measured + left
}
