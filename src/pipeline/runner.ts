import { basename, dirname, join } from 'node:path'
import { architectureProblem, architectureSeen } from './architecture-check.ts'
import type { Architecture } from './architecture-line.ts'
import { buildCommand, type Command, type PredictOptions } from './command.ts'
import type { TargetEvent } from './events.ts'
import { classifyExit } from './exit-class.ts'
import { checkRunPaths } from './input-checks.ts'
import { registerLiveRun } from './live-runs.ts'
import { type LogSink, openLogSink } from './log-sink.ts'
import { collectOutputs } from './outputs.ts'
import type { TargetProfile } from './profiles.ts'
import { type RunOutput, readRunOutput } from './run-output.ts'
import type { GpuCheck, GpuMemoryHeld, RunOutputs, RunRecord } from './run-record.ts'
import { buildStageSpans } from './stage-spans.ts'
import { spawnTracked, type TrackedExit } from './tracked-process.ts'

export interface RunTargetOptions extends PredictOptions {
  /** Where the full log goes; default `<outputDir>.log` beside the output directory (which `--force` may wipe). */
  logPath?: string
  /** End the run (SIGTERM to its group, SIGKILL after `graceMs`) after this long; 0 or absent: no limit. */
  timeoutMs?: number
  /** SIGTERM -> SIGKILL delay when ending a run. Default 5000 ms. */
  graceMs?: number
  /** Aborting ends the run like a timeout does; the record says `aborted by the caller`. */
  abortSignal?: AbortSignal
  /** Every parsed event, as it arrives (stage tags for the monitor, progress display). */
  onEvent?: (event: TargetEvent) => void
  /** How often the process tree is polled for new PIDs. Default 100 ms. */
  pollIntervalMs?: number
  /**
   * Called once, right after the spawn, with the target's process tree (root PID and every PID seen so far, kept
   * current by the runner's own polling): what the monitor needs to attribute GPU work to the target.
   */
  onSpawn?: (tree: { rootPid: number; pids(): number[] }) => void
  /** Monitor attribution: the physical GPUs on which these PIDs used memory during the run. */
  gpusUsedBy?: (pids: number[]) => Promise<number[]>
  /** NVML hook: GPU memory these PIDs still hold now (called after cleanup). */
  gpuMemoryHeldBy?: (pids: number[]) => Promise<GpuMemoryHeld[]>
  /** Environment the target inherits (default `process.env`), before the profile's and `env` additions. */
  baseEnv?: NodeJS.ProcessEnv
  /**
   * The architecture the configuration asks for (issue 56): a run whose log names another, or none, is a failed run
   * whose reason quotes the log's line (architecture-check.ts). Absent: not checked (a target without architectures).
   */
  architecture?: Architecture
}

const DEFAULT_GRACE_MS = 5_000

interface Early {
  profile: string
  command: Command | null
  reason: string
  logPath: string | null
  gpus: number[] | null
  startedAt: string
}

/** A record for a run that never started: failed, with the reason, nothing spawned. */
function earlyFailure(e: Early): RunRecord {
  return {
    profile: e.profile,
    command: e.command,
    exitClass: 'failed',
    reason: e.reason,
    exitCode: null,
    signal: null,
    startedAt: e.startedAt,
    wallMs: 0,
    stages: [],
    stageMismatches: [],
    summary: null,
    sawOom: false,
    outputs: { state: 'not-read', reason: 'the run did not start' },
    logPath: e.logPath,
    logTail: [],
    logReadErrors: { total: 0, first: [] },
    gpusRequested: e.gpus,
    gpusUsed: null,
    gpuMismatch: null,
    pids: [],
    cleanup: null,
  }
}

async function checkGpuMemory(options: RunTargetOptions, pids: number[]): Promise<GpuCheck> {
  if (!options.gpuMemoryHeldBy) return 'not-run'
  try {
    const holders = await options.gpuMemoryHeldBy(pids)
    return holders.length === 0 ? { state: 'clean' } : { state: 'held', holders }
  } catch (error) {
    return { state: 'error', error: (error as Error).message }
  }
}

async function gpusUsed(options: RunTargetOptions, pids: number[]): Promise<number[] | null> {
  if (!options.gpusUsedBy) return null
  return options.gpusUsedBy(pids).catch(() => null)
}

async function readOutputs(options: RunTargetOptions, exitClass: string): Promise<RunOutputs> {
  if (exitClass !== 'completed' && exitClass !== 'partial')
    return { state: 'not-read', reason: `run ended as ${exitClass}` }
  return collectOutputs(options.outputDir, options.input)
}

async function prepare(profile: TargetProfile, options: RunTargetOptions, early: Early) {
  const pathProblem = await checkRunPaths(options.input, options.outputDir)
  if (pathProblem) return earlyFailure({ ...early, reason: pathProblem })
  const resolved = await profile.launcher(options.baseEnv ?? process.env)
  if (resolved.state === 'unavailable')
    return earlyFailure({ ...early, reason: `target '${profile.name}' not installed: ${resolved.reason}` })
  const command = buildCommand(profile, resolved.launcher, options)
  const sink = await openLogSink(early.logPath!).catch((error: Error) => error)
  if (sink instanceof Error)
    return earlyFailure({ ...early, command, reason: `cannot open log file ${early.logPath}: ${sink.message}` })
  return { command, sink }
}

async function finishRecord(
  profile: TargetProfile,
  options: RunTargetOptions,
  early: Early,
  run: { command: Command; sink: LogSink; output: RunOutput; exit: TrackedExit },
): Promise<RunRecord> {
  const { exit } = run
  const { events } = run.output
  const errorLine = run.output.errorLine()
  const sawOom = events.some((e) => e.type === 'oom')
  let { exitClass, reason } = classifyExit({
    ...exit,
    sawOom,
    timeoutMs: options.timeoutMs,
    exitCodes: profile.exitCodes,
  })
  // The exit code says that the run failed, its own last error line says why. Not for a run the harness ended (its
  // last line is wherever it was stopped) nor one that never started.
  const endedByItself = !exit.timedOut && !exit.aborted && !exit.spawnError
  if (exitClass !== 'completed' && endedByItself && errorLine) reason = `${reason}: ${errorLine}`
  if (exit.spawnError) ({ exitClass, reason } = { exitClass: 'failed', reason: exit.spawnError })
  const outputs = await readOutputs(options, exitClass)
  if (exitClass === 'completed' && outputs.state !== 'found')
    ({ exitClass, reason } = { exitClass: 'failed', reason: outputs.reason })
  const seen = architectureSeen(events)
  const wrongPath = exitClass === 'completed' ? architectureProblem(options.architecture, seen) : null
  if (wrongPath) ({ exitClass, reason } = { exitClass: 'failed', reason: wrongPath })
  const { spans, mismatches } = buildStageSpans(events)
  const summaryEvent = events.findLast((e) => e.type === 'summary')
  const used = await gpusUsed(options, exit.pids)
  const gpuCheck = await checkGpuMemory(options, exit.pids)
  await run.sink.close()
  return {
    ...earlyFailure(early),
    command: run.command,
    exitClass,
    reason,
    exitCode: exit.exitCode,
    signal: exit.signal,
    wallMs: exit.wallMs,
    stages: spans,
    stageMismatches: mismatches,
    summary: summaryEvent?.type === 'summary' ? summaryEvent.summary : null,
    sawOom,
    outputs,
    architecture: seen,
    logTail: run.sink.tail(),
    logReadErrors: run.output.readErrors(),
    gpusUsed: used,
    gpuMismatch: used && early.gpus ? used.some((g) => !early.gpus!.includes(g)) : null,
    pids: exit.pids,
    cleanup: { ...exit.cleanup, gpuCheck },
  }
}

/**
 * Runs a target once and reports exactly what happened. Output is streamed to the log file byte for byte and, line
 * by line, to the parser (run-output.ts); the process tree is tracked, and ended (group SIGTERM, then SIGKILL) on
 * timeout, abort, or when the root exits leaving orphans, a daemon that detached included (process-tree.ts). Never
 * throws for a failed run: bad input, a missing target, a crash, an OOM, a hang, odd output, all become a RunRecord
 * with the exit class and reason.
 */
export async function runTarget(profile: TargetProfile, options: RunTargetOptions): Promise<RunRecord> {
  const early: Early = {
    profile: profile.name,
    command: null,
    reason: '',
    logPath: options.logPath ?? join(dirname(options.outputDir), `${basename(options.outputDir)}.log`),
    gpus: options.gpus ?? null,
    startedAt: new Date().toISOString(),
  }
  const prepared = await prepare(profile, options, early)
  if ('exitClass' in prepared) return prepared
  const { command, sink } = prepared
  const output = readRunOutput(sink, options.onEvent)
  const exit = await spawnTracked(command, {
    baseEnv: options.baseEnv ?? process.env,
    graceMs: options.graceMs ?? DEFAULT_GRACE_MS,
    timeoutMs: options.timeoutMs,
    abortSignal: options.abortSignal,
    pollIntervalMs: options.pollIntervalMs ?? 100,
    register(tree) {
      options.onSpawn?.({ rootPid: tree.rootPid, pids: () => tree.pids() })
      return registerLiveRun(tree)
    },
    onChunk: output.onChunk,
    onLine: output.onLine,
  })
  return finishRecord(profile, options, early, { command, sink, output, exit })
}
