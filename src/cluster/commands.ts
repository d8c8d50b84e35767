/**
 * Thin wrappers over the scheduler's own commands (sbatch, sinfo, squeue, scancel), run with execa: arguments in,
 * parsed answers out. A missing command, a refusal and a hang each become one ClusterError in the command's own
 * words; a command that hangs is killed at its timeout, so none outlives the call.
 */
import os from 'node:os'
import { execa } from 'execa'
import { ClusterError } from './errors.ts'
import { parsePartitions, parseQueue, parseSbatchJobId, QUEUE_FORMAT, type QueueRow } from './parse.ts'

export interface CommandOptions {
  /** The environment the command runs with (default: this process's): PATH finds it, SLURM_CONF names the cluster. */
  env?: NodeJS.ProcessEnv
  /** Killed after this long (default 60 s: slurmctld answers in well under that, or is down). */
  timeoutMs?: number
  /** Working directory (sbatch: the job's default working directory). */
  cwd?: string
}

const DEFAULT_TIMEOUT_MS = 60_000

/** The command's stderr as one line: its lines joined with '; ' (sbatch says why over two lines). */
function oneLine(text: string): string {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')
    .join('; ')
}

/**
 * Runs `tool args` and returns its stdout.
 * @throws ClusterError CLUSTER_TOOL_MISSING when it is not on PATH; `failure` (default CLUSTER_COMMAND_FAILED) with
 * the command's own message when it exits non-zero or does not answer in time.
 */
export async function runTool(
  tool: string,
  args: readonly string[],
  options: CommandOptions = {},
  failure: 'CLUSTER_COMMAND_FAILED' | 'CLUSTER_JOB_REJECTED' = 'CLUSTER_COMMAND_FAILED',
): Promise<string> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS
  const result = await execa(tool, args, {
    reject: false,
    env: options.env ?? process.env,
    extendEnv: false,
    timeout: timeoutMs,
    cwd: options.cwd,
    stdin: 'ignore',
  })
  if (result.code === 'ENOENT')
    throw new ClusterError(
      'CLUSTER_TOOL_MISSING',
      `${tool} not found on PATH: run this on a Slurm login node, or add Slurm's client commands to PATH`,
      { cause: result },
    )
  if (result.timedOut)
    throw new ClusterError(
      'CLUSTER_COMMAND_FAILED',
      `${tool} did not answer within ${timeoutMs / 1000} s (is slurmctld up?)`,
      {
        cause: result,
      },
    )
  if (result.failed) {
    const said =
      oneLine(result.stderr) ||
      oneLine(result.stdout) ||
      `${tool} ended with status ${result.exitCode} and said nothing`
    throw new ClusterError(failure, said, { cause: result })
  }
  return result.stdout
}

/** The partitions the cluster has (sinfo). */
export async function listPartitions(options: CommandOptions = {}): Promise<string[]> {
  return parsePartitions(await runTool('sinfo', ['--noheader', '--format=%R'], options))
}

/**
 * Submits a script; returns the job id sbatch printed.
 * @throws ClusterError CLUSTER_JOB_REJECTED with sbatch's own message when Slurm refuses the job.
 */
export async function submitScript(scriptPath: string, args: readonly string[], options: CommandOptions = {}) {
  const stdout = await runTool('sbatch', [...args, scriptPath], options, 'CLUSTER_JOB_REJECTED')
  return parseSbatchJobId(stdout)
}

/** This user's jobs named `name`, one row per array task, finished ones too while slurmctld remembers them. */
export async function queueRows(name: string, options: CommandOptions = {}): Promise<QueueRow[]> {
  const args = ['--noheader', '--array', '--states=all', `--name=${name}`, `--user=${os.userInfo().username}`]
  return parseQueue(await runTool('squeue', [...args, `--format=${QUEUE_FORMAT}`], options))
}

/** Cancels jobs by id (every task of an array when given the array's id). */
export async function cancelJobs(jobIds: readonly string[], options: CommandOptions = {}): Promise<void> {
  if (jobIds.length > 0) await runTool('scancel', [...jobIds], options)
}
