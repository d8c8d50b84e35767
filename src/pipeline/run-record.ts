import type { ArchitectureSeen } from './architecture-line.ts'
import type { Command } from './command.ts'
import type { OutputStream } from './error-line.ts'
import type { SummaryBlock } from './events.ts'
import type { ExitClass } from './exit-class.ts'
import type { OutputsFound } from './outputs.ts'
import type { StageMismatch, StageSpan } from './stage-spans.ts'
import type { CleanupResult } from './terminate.ts'

/** GPU memory a process still holds, as the monitor / NVML layer reports it. */
export interface GpuMemoryHeld {
  pid: number
  memUsedBytes: number
  gpu: number
}

/** Whether the run's PIDs still held GPU memory after cleanup; 'not-run' when no NVML hook was given. */
export type GpuCheck =
  | 'not-run'
  | { state: 'clean' }
  | { state: 'held'; holders: GpuMemoryHeld[] }
  | { state: 'error'; error: string }

export type RunOutputs = OutputsFound | { state: 'not-read'; reason: string }

/** A line of the target's output the parser recognised but could not read whole (events.ts ReadErrorEvent). */
export interface LogReadError {
  /** When the line arrived, ms since spawn. */
  atMs: number
  stream: OutputStream
  /** The line as kept (kept-line.ts: bounded, control characters escaped). */
  line: string
  /** What could not be read, e.g. `stage duration '9999…' (402 characters) is beyond what a number holds`. */
  reason: string
}

/** The reading errors of one run: how many, and the first few in full (runner: MAX_READ_ERRORS). */
export interface LogReadErrors {
  total: number
  first: LogReadError[]
}

/** Everything that happened in one target run, as data (ARCHITECTURE.md "Run record"). Never thrown. */
export interface RunRecord {
  profile: string
  /** What was run; null when the run failed before a command could be built (target not installed, bad input). */
  command: Command | null
  exitClass: ExitClass
  /** Why the run is not `completed` (or null when it is). */
  reason: string | null
  exitCode: number | null
  signal: string | null
  startedAt: string
  /** Spawn to root-process exit, monotonic clock. */
  wallMs: number
  stages: StageSpan[]
  stageMismatches: StageMismatch[]
  summary: SummaryBlock | null
  sawOom: boolean
  outputs: RunOutputs
  logPath: string | null
  /**
   * Last 50 lines of stdout and stderr, in arrival order (`\r` ends a line too), each as kept-line.ts keeps it: at
   * most 1,000 characters and a marker of the bytes cut, control characters escaped. The log file has every byte.
   */
  logTail: string[]
  /** Lines the parser could not read whole; absent in records written before it was kept. */
  logReadErrors?: LogReadErrors
  /**
   * The architecture the run's log named (`Architecture: v2.0 hybrid`: architecture-line.ts); null where it named none.
   * Absent in records written before issue 56.
   */
  architecture?: ArchitectureSeen | null
  /** Physical GPUs asked for; null: the target's default. */
  gpusRequested: number[] | null
  /** Physical GPUs the work really ran on (monitor attribution); null when no hook reported it. */
  gpusUsed: number[] | null
  /** True when a GPU outside the requested set did work; null when either side is unknown. */
  gpuMismatch: boolean | null
  /** Every PID seen in the process tree, root first. */
  pids: number[]
  cleanup: (CleanupResult & { gpuCheck: GpuCheck }) | null
}
