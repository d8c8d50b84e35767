/**
 * `virnucpro-bench monitor [--interval-ms N] [--gpus 0,1] [--out FILE] [--json] [-- COMMAND ...]`
 * Samples the GPUs until Ctrl-C, or while COMMAND runs: COMMAND runs as a real child in its own process group, its
 * stdout and stderr pass through to ours byte for byte (as `time` leaves them) and are read for VirNucPro stage lines
 * (stage tags, sequence count), its process tree is attributed GPU use. The summary goes to stdout without COMMAND and
 * to stderr with it (stdout is COMMAND's); a COMMAND killed by a signal is said to be, before the summary. Returns
 * COMMAND's exit code (128 + the signal's number when killed; 0 without one); 3 when the GPUs cannot be sampled.
 */
import { once } from 'node:events'
import { statSync } from 'node:fs'
import { constants } from 'node:os'
import { formatSummary } from '../monitor/format-summary.ts'
import { GpuMonitor, type MonitorStopResult } from '../monitor/monitor.ts'
import { MonitorOptionError } from '../monitor/options.ts'
import { createStageTagger } from '../monitor/stage-events.ts'
import { registerLiveRun } from '../pipeline/live-runs.ts'
import { createLogParser } from '../pipeline/log-parser.ts'
import { spawnTracked } from '../pipeline/tracked-process.ts'
import { parseCommand } from './command-spec.ts'
import { EXIT_UNUSABLE_DATA, UnusableDataError } from './exit-codes.ts'
import { checkOutputTarget } from './output-target.ts'
import { monitorSpec } from './specs.ts'
import { parseIntegerOption, UsageError } from './usage-error.ts'

const NAME = monitorSpec.name
const GRACE_MS = 5_000

interface MonitorArgs {
  intervalMs: number | undefined
  gpus: number[] | null
  out: string | undefined
  json: boolean
  command: string[]
}

/** Parses `--gpus 0,1` into indices. @throws UsageError naming the bad entry. */
export function parseGpuList(value: string): number[] {
  const parts = value.split(',').map((part) => part.trim())
  return parts.map((part) => {
    if (!/^\d+$/.test(part)) throw new UsageError(`${NAME}: --gpus must be GPU indices like 0,1, got '${value}'`)
    return Number(part)
  })
}

/** @throws HelpRequested for `--help` before `--`; UsageError for unknown options or bad values. */
export function parseMonitorArgs(args: string[]): MonitorArgs {
  const split = args.indexOf('--')
  const own = split < 0 ? args : args.slice(0, split)
  const command = split < 0 ? [] : args.slice(split + 1)
  if (split >= 0 && command.length === 0) throw new UsageError(`${NAME}: '--' must be followed by a command`)
  const { values } = parseCommand(monitorSpec, own)
  return {
    intervalMs: parseIntegerOption(NAME, 'interval-ms', values['interval-ms'], 1),
    gpus: values.gpus === undefined ? null : parseGpuList(values.gpus),
    out: values.out,
    json: values.json === true,
    command,
  }
}

/**
 * A log is never appended to or written over: a second run's samples after the first's would read as one run.
 * @throws UnusableDataError naming the path and what to give instead.
 */
function checkLogPath(out: string | undefined): void {
  if (out === undefined) return
  // Nor inside a run directory (issue 58): beside its records and runs, a log of another process reads as one of them.
  checkOutputTarget({
    command: NAME,
    option: '--out',
    target: out,
    instead: 'a new file outside every run directory, e.g. ./gpu.jsonl',
  })
  const info = statSync(out, { throwIfNoEntry: false })
  if (info === undefined) return
  const what = info.isDirectory() ? 'is a directory' : 'exists already'
  throw new UnusableDataError(
    `${NAME}: --out '${out}' ${what}: give a new file (a monitor log is never appended to or replaced)`,
  )
}

export async function run(args: string[]): Promise<number> {
  const parsed = parseMonitorArgs(args)
  checkLogPath(parsed.out)
  let started: Awaited<ReturnType<typeof GpuMonitor.start>>
  try {
    started = await GpuMonitor.start({ intervalMs: parsed.intervalMs, gpus: parsed.gpus, logPath: parsed.out })
  } catch (error) {
    if (error instanceof MonitorOptionError) throw new UsageError(`${NAME}: ${error.message}`, { cause: error })
    throw error
  }
  if (started.state !== 'started') {
    console.error(`virnucpro-bench ${NAME}: cannot monitor: ${started.reason}`)
    return EXIT_UNUSABLE_DATA
  }
  const monitor = started.monitor
  console.error(`virnucpro-bench ${NAME}: sampling GPUs ${monitor.sampledGpus.join(',')} into ${monitor.logPath}`)
  if (parsed.command.length === 0) {
    const outcome = await untilInterrupted(monitor)
    return report(outcome.result, parsed.json, process.stdout) ?? outcome.exitCode
  }
  const outcome = await wrapCommand(monitor, parsed)
  if (outcome.ended) console.error(`virnucpro-bench ${NAME}: ${outcome.ended}`)
  return report(outcome.result, parsed.json, process.stderr, outcome.command) ?? outcome.exitCode
}

/** How COMMAND ended, as the JSON summary carries it. */
interface CommandEnd {
  argv: string[]
  exitCode: number | null
  signal: string | null
  spawnError: string | null
}

function report(
  result: MonitorStopResult,
  json: boolean,
  out: NodeJS.WriteStream,
  command?: CommandEnd,
): number | null {
  if (result.summary) {
    const summary = command ? { ...result.summary, command } : result.summary
    out.write(json ? `${JSON.stringify(summary, null, 2)}\n` : formatSummary(result.summary))
  }
  if (result.state === 'failed') {
    console.error(`virnucpro-bench ${NAME}: monitor failed: ${result.error} (log: ${result.logPath})`)
    return EXIT_UNUSABLE_DATA
  }
  return null
}

async function untilInterrupted(monitor: GpuMonitor): Promise<{ result: MonitorStopResult; exitCode: number }> {
  console.error(`virnucpro-bench ${NAME}: Ctrl-C to stop`)
  await new Promise<void>((resolve) => {
    // Signal listeners do not keep Node running and the sampling worker is unref'd: hold the loop open ourselves.
    const hold = setInterval(() => {}, 1 << 30)
    const done = () => {
      clearInterval(hold)
      resolve()
    }
    process.once('SIGINT', done)
    process.once('SIGTERM', done)
  })
  return { result: await monitor.stop(), exitCode: 0 }
}

interface Wrapped {
  result: MonitorStopResult
  exitCode: number
  command: CommandEnd
  /** A line for an end that is not a plain exit 0: a signal, a non-zero status, a command that never started. */
  ended: string | null
}

async function wrapCommand(monitor: GpuMonitor, parsed: MonitorArgs): Promise<Wrapped> {
  const parser = createLogParser()
  const tagger = createStageTagger(monitor)
  const [file, ...commandArgs] = parsed.command as [string, ...string[]]
  // Ctrl-C ends the command (live-runs.ts kills its tree); this listener keeps us alive to print the summary.
  const keepAlive = () => {}
  process.on('SIGINT', keepAlive)
  const started = performance.now()
  const exit = await spawnTracked(
    { file, args: commandArgs, env: {} },
    {
      baseEnv: process.env,
      graceMs: GRACE_MS,
      pollIntervalMs: 100,
      register: (tree) => {
        monitor.attachTarget(tree, parsed.gpus)
        return registerLiveRun(tree)
      },
      // Its bytes as written, each stream to ours: `monitor -- cmd > out.txt` captures what cmd printed. Where ours is
      // behind (a slow pipe or disk), cmd's pipe waits for it rather than this process queueing its output.
      onChunk: (chunk, stream) => {
        const out = stream === 'stdout' ? process.stdout : process.stderr
        return out.write(chunk) ? undefined : once(out, 'drain').then(() => undefined)
      },
      onLine: (line, atMs) => {
        if (line.complete && line.cutBytes === 0)
          for (const event of parser.push(line.text, atMs)) tagger.onEvent(event)
      },
    },
  )
  process.off('SIGINT', keepAlive)
  const result = await monitor.stop({ sequenceCount: tagger.sequenceCount() })
  const command = { argv: parsed.command, exitCode: exit.exitCode, signal: exit.signal, spawnError: exit.spawnError }
  if (exit.spawnError) return { result, exitCode: 127, command, ended: exit.spawnError }
  const signalCode = exit.signal ? 128 + (signalNumber(exit.signal) ?? 0) : null
  const exitCode = exit.exitCode ?? signalCode ?? 1
  const seconds = ((performance.now() - started) / 1000).toFixed(1)
  const ended = exit.signal
    ? `${file} was killed by ${exit.signal} after ${seconds} s (exit ${exitCode}): the summary covers it up to then`
    : exitCode !== 0
      ? `${file} exited with status ${exitCode} after ${seconds} s`
      : null
  return { result, exitCode, command, ended }
}

function signalNumber(signal: string): number | undefined {
  return constants.signals[signal as NodeJS.Signals]
}
