/**
 * The target's own `predict --help`, read by running it through its profile's launcher (the reference pipeline's
 * `python -m refpipe predict --help`, VirNucPro's `python -m virnucpro predict --help`) as a real process: tracked,
 * its output capped, its whole tree ended on a timeout (tracked-process.ts, as every run of the target is). A target
 * that cannot say its options here (no interpreter, a failing import, a hang) is a one-line problem, never a throw.
 */
import { escapeControls } from '../platform/one-line.ts'
import type { Command } from './command.ts'
import { type HelpOption, parseHelpOptions } from './help-options.ts'
import { registerLiveRun } from './live-runs.ts'
import type { TargetProfile } from './profiles.ts'
import { groupOptionsByStage, type StageOptionEntry, stageOptionEntries } from './stage-options.ts'
import { spawnTracked, type TrackedExit } from './tracked-process.ts'

export type TargetHelp =
  | { state: 'read'; text: string; options: HelpOption[] }
  | { state: 'unavailable'; problem: string }

export interface TargetHelpOptions {
  /** Ends the process tree after this long (ms). Importing torch before argparse answers takes seconds. */
  timeoutMs?: number
  /** Stdout kept at most (bytes); past it the process is ended and the help refused as not a help text. */
  maxBytes?: number
  /** SIGTERM to SIGKILL, ms. */
  graceMs?: number
}

export const HELP_TIMEOUT_MS = 30_000
/** VirNucPro's help is 4 KB: 256 KiB is no help text but a program printing something else. */
export const HELP_MAX_BYTES = 256 * 1024
const HELP_GRACE_MS = 1_000
/** The lines of stderr kept, for the problem's words. */
const STDERR_LINES = 20

/** What a failed read says: the last non-empty stderr line (a traceback's last line names the error). */
const lastLine = (lines: readonly string[]) =>
  lines
    .filter((l) => l.trim() !== '')
    .at(-1)
    ?.trim() ?? ''

interface HelpRun {
  exit: TrackedExit
  stdout: string[]
  stderr: string[]
  stdoutBytes: number
}

/** Runs the command tracked, its stdout kept up to `maxBytes` (past it the tree is ended), its stderr's last lines. */
async function runHelp(command: Command, env: NodeJS.ProcessEnv, o: Required<TargetHelpOptions>): Promise<HelpRun> {
  const run = { stdout: [] as string[], stderr: [] as string[], stdoutBytes: 0 }
  const tooLong = new AbortController()
  const exit = await spawnTracked(command, {
    baseEnv: env,
    graceMs: o.graceMs,
    timeoutMs: o.timeoutMs,
    abortSignal: tooLong.signal,
    pollIntervalMs: 100,
    register: registerLiveRun,
    onLine(line, _atMs, stream) {
      if (stream === 'stderr') {
        run.stderr.push(line.text)
        if (run.stderr.length > STDERR_LINES) run.stderr.shift()
        return
      }
      run.stdoutBytes += Buffer.byteLength(line.text) + line.cutBytes + 1
      if (run.stdoutBytes > o.maxBytes) tooLong.abort()
      else run.stdout.push(line.text)
    },
  })
  return { exit, ...run }
}

/** Why a finished help run gave no options, in words; null when it printed them. */
function problemOf({ exit, stdout, stderr, stdoutBytes }: HelpRun, o: Required<TargetHelpOptions>): string | null {
  if (exit.spawnError) return exit.spawnError
  if (exit.timedOut) return `no answer within ${o.timeoutMs / 1000} s, process tree ended`
  if (exit.aborted) return `printed over ${o.maxBytes} bytes, not a help text`
  if (exit.exitCode !== 0) {
    const how = exit.exitCode === null ? `killed by ${exit.signal}` : `exit ${exit.exitCode}`
    const why = lastLine(stderr) || lastLine(stdout)
    return `${how}${why ? ` (${why})` : ''}`
  }
  return stdout.length === 0 || stdoutBytes === 0 ? 'printed nothing' : null
}

/**
 * Runs `<launcher> predict --help` and parses the options it prints.
 * @param env the environment the target runs with (the launcher's own variables are added on top).
 */
export async function readTargetHelp(
  profile: TargetProfile,
  env: NodeJS.ProcessEnv = process.env,
  options: TargetHelpOptions = {},
): Promise<TargetHelp> {
  const unavailable = (why: string): TargetHelp => ({
    state: 'unavailable',
    problem: escapeControls(`target '${profile.name}': cannot read 'predict --help': ${why}`),
  })
  const resolved = await profile.launcher(env)
  if (resolved.state === 'unavailable') return unavailable(resolved.reason)
  const { file, args, cwd, env: launcherEnv } = resolved.launcher
  const command: Command = { file, args: [...args, 'predict', '--help'], cwd, env: launcherEnv }
  const shown = [file, ...command.args].join(' ') + (cwd ? ` (in ${cwd})` : '')
  const o: Required<TargetHelpOptions> = {
    timeoutMs: options.timeoutMs ?? HELP_TIMEOUT_MS,
    maxBytes: options.maxBytes ?? HELP_MAX_BYTES,
    graceMs: options.graceMs ?? HELP_GRACE_MS,
  }
  const run = await runHelp(command, env, o)
  const problem = problemOf(run, o)
  if (problem !== null) return unavailable(`${problem}: ${shown}`)
  const text = run.stdout.join('\n')
  const parsed = parseHelpOptions(text)
  if (parsed.length === 0) return unavailable(`printed no option lines (${run.stdoutBytes} bytes): ${shown}`)
  return { state: 'read', text, options: parsed }
}

/** A settings study's view of the help: the options per stage, or why there are none (study/stats.ts's fields). */
export interface StageOptionsRead {
  stageOptions: { stage: string; options: StageOptionEntry[] }[]
  stageOptionsProblem: string | null
}

/** The target's options per stage (stage-options.ts), or the one-line problem that kept them from being read. */
export async function readStageOptions(
  profile: TargetProfile,
  env: NodeJS.ProcessEnv = process.env,
  options: TargetHelpOptions = {},
): Promise<StageOptionsRead> {
  return stageOptionsOf(await readTargetHelp(profile, env, options))
}

/** A help already read, as the options per stage, or the problem that kept it from being read. */
export function stageOptionsOf(help: TargetHelp): StageOptionsRead {
  if (help.state === 'unavailable') return { stageOptions: [], stageOptionsProblem: help.problem }
  return { stageOptions: stageOptionEntries(groupOptionsByStage(help.options)), stageOptionsProblem: null }
}
