/**
 * `virnucpro-bench monitor [--interval-ms N] [--gpus 0,1] [--out FILE] [--json] [-- COMMAND ...]`
 * Samples the GPUs until Ctrl-C, or while COMMAND runs: COMMAND runs as a real child in its own process group, its
 * output is echoed to stderr and read for VirNucPro stage lines (stage tags, sequence count), its process tree is
 * attributed GPU use. Prints the summary on stdout at the end and returns COMMAND's exit code (0 without one).
 */
import { constants } from 'node:os'
import { formatSummary } from '../monitor/format-summary.ts'
import { GpuMonitor, type MonitorStopResult } from '../monitor/monitor.ts'
import { MonitorOptionError } from '../monitor/options.ts'
import { createStageTagger } from '../monitor/stage-events.ts'
import { registerLiveRun } from '../target/live-runs.ts'
import { createLogParser } from '../target/log-parser.ts'
import { spawnTracked } from '../target/tracked-process.ts'
import { parseCommand } from './command-spec.ts'
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

export async function run(args: string[]): Promise<number> {
  const parsed = parseMonitorArgs(args)
  let started: Awaited<ReturnType<typeof GpuMonitor.start>>
  try {
    started = await GpuMonitor.start({ intervalMs: parsed.intervalMs, gpus: parsed.gpus, logPath: parsed.out })
  } catch (error) {
    if (error instanceof MonitorOptionError) throw new UsageError(`${NAME}: ${error.message}`, { cause: error })
    throw error
  }
  if (started.state !== 'started') {
    console.error(`virnucpro-bench ${NAME}: cannot monitor: ${started.reason}`)
    return 1
  }
  const monitor = started.monitor
  console.error(`virnucpro-bench ${NAME}: sampling GPUs ${monitor.sampledGpus.join(',')} into ${monitor.logPath}`)
  const outcome = parsed.command.length > 0 ? await wrapCommand(monitor, parsed) : await untilInterrupted(monitor)
  return report(outcome.result, parsed.json) ?? outcome.exitCode
}

function report(result: MonitorStopResult, json: boolean): number | null {
  if (result.summary)
    process.stdout.write(json ? `${JSON.stringify(result.summary, null, 2)}\n` : formatSummary(result.summary))
  if (result.state === 'failed') {
    console.error(`virnucpro-bench ${NAME}: monitor failed: ${result.error} (log: ${result.logPath})`)
    return 1
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

async function wrapCommand(
  monitor: GpuMonitor,
  parsed: MonitorArgs,
): Promise<{ result: MonitorStopResult; exitCode: number }> {
  const parser = createLogParser()
  const tagger = createStageTagger(monitor)
  const [file, ...commandArgs] = parsed.command as [string, ...string[]]
  // Ctrl-C ends the command (live-runs.ts kills its tree); this listener keeps us alive to print the summary.
  const keepAlive = () => {}
  process.on('SIGINT', keepAlive)
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
      onLine: (line, complete, atMs) => {
        process.stderr.write(`${line}\n`)
        if (complete) for (const event of parser.push(line, atMs)) tagger.onEvent(event)
      },
    },
  )
  process.off('SIGINT', keepAlive)
  const result = await monitor.stop({ sequenceCount: tagger.sequenceCount() })
  if (exit.spawnError) {
    console.error(`virnucpro-bench ${NAME}: ${exit.spawnError}`)
    return { result, exitCode: 127 }
  }
  const signalCode = exit.signal ? 128 + (signalNumber(exit.signal) ?? 0) : null
  return { result, exitCode: exit.exitCode ?? signalCode ?? 1 }
}

function signalNumber(signal: string): number | undefined {
  return constants.signals[signal as NodeJS.Signals]
}
