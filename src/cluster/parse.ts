/**
 * Readers of the scheduler's answers: sbatch --parsable, sinfo's partition list, squeue rows in the format this code
 * asks for (QUEUE_FORMAT). Each either returns data or throws ClusterError CLUSTER_UNREADABLE_OUTPUT quoting the line.
 */
import { ClusterError } from './errors.ts'

function unreadable(what: string, line: string): never {
  throw new ClusterError('CLUSTER_UNREADABLE_OUTPUT', `${what}: cannot read '${line.slice(0, 200)}'`)
}

const nonEmptyLines = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '')

/** `sbatch --parsable` prints `<job id>` or `<job id>;<cluster>` (warnings go to stderr). */
export function parseSbatchJobId(stdout: string): string {
  const line = nonEmptyLines(stdout).at(-1) ?? ''
  const match = /^(\d+)(?:;\S+)?$/.exec(line)
  if (!match) unreadable('sbatch --parsable', line)
  return match[1]!
}

/** `sinfo --noheader --format=%R`: one partition per line (a partition over several node sets repeats). */
export function parsePartitions(stdout: string): string[] {
  return [...new Set(nonEmptyLines(stdout))]
}

/** One array task (or plain job) as squeue lists it. */
export interface QueueRow {
  /** The task's own job id (`%A`: an array task that started has one of its own). */
  jobId: string
  /** The array's job id (`%F`), the id sbatch printed. */
  arrayJobId: string
  /** The array task index (`%K`); null for a job that is no array, or a range not yet split (`0-3`). */
  taskIndex: number | null
  /** PENDING, RUNNING, COMPLETED, FAILED, CANCELLED, TIMEOUT, ... (`%T`). */
  state: string
  /** Time used so far in seconds (`%M`). */
  usedS: number
  /** Nodes (`%N`); empty while pending. */
  nodes: string
  partition: string
  /** Why it waits or ended (`%r`), e.g. `Resources`, `None`. */
  reason: string
}

/** The squeue format parseQueue reads: `|`-separated, the free-text reason last (it could hold anything but a newline). */
export const QUEUE_FORMAT = '%A|%F|%K|%T|%M|%N|%P|%r'

const DURATION = /^(?:(\d+)-)?(?:(\d+):)?(\d+):(\d{2})$/
const NOT_STARTED = new Set(['INVALID', 'N/A'])

/** `[D-]HH:MM:SS`, `MM:SS` or `M:SS` (squeue's %M) in seconds; `INVALID`/`N/A` (not started) read as 0. */
export function parseSlurmDurationS(text: string): number {
  if (NOT_STARTED.has(text)) return 0
  const match = DURATION.exec(text)
  if (!match) unreadable('squeue time used', text)
  const [, days, hours, minutes, seconds] = match
  return ((Number(days ?? 0) * 24 + Number(hours ?? 0)) * 60 + Number(minutes)) * 60 + Number(seconds)
}

/** squeue rows in QUEUE_FORMAT, `--noheader`. */
export function parseQueue(stdout: string): QueueRow[] {
  return nonEmptyLines(stdout).map((line) => {
    const fields = line.split('|')
    if (fields.length < 8) unreadable('squeue', line)
    const [jobId, arrayJobId, task, state, used, nodes, partition] = fields as [string, ...string[]]
    const ids = /^\d+$/.test(jobId) && /^\d+$/.test(arrayJobId!)
    if (!ids || !/^[A-Z_]+$/.test(state!) || !(NOT_STARTED.has(used!) || DURATION.test(used!)))
      unreadable('squeue', line)
    return {
      jobId,
      arrayJobId: arrayJobId!,
      taskIndex: /^\d+$/.test(task!) ? Number(task) : null,
      state: state!,
      usedS: parseSlurmDurationS(used!),
      nodes: nodes!,
      partition: partition!,
      reason: fields.slice(7).join('|'),
    }
  })
}

/** `scontrol show config`: MaxArraySize's value (`MaxArraySize            = 1001`). */
export function parseMaxArraySize(stdout: string): number {
  const line = nonEmptyLines(stdout).find((l) => /^MaxArraySize\s*=/.test(l))
  const value = line === undefined ? undefined : /=\s*(\d+)$/.exec(line)?.[1]
  if (value === undefined) unreadable('scontrol show config, MaxArraySize', line ?? '(no such line)')
  return Number(value)
}

/**
 * `sinfo --noheader --format=%R|%G`: per partition, the most GPUs one node of it has (its `gpu` GRES summed over
 * types: `gpu:a100:4,gpu:v100:2(S:0-1)` is 6; `(null)` is 0).
 */
export function parseGpusPerPartition(stdout: string): Map<string, number> {
  const most = new Map<string, number>()
  for (const line of nonEmptyLines(stdout)) {
    const bar = line.indexOf('|')
    if (bar < 0) unreadable('sinfo partition GRES', line)
    const partition = line.slice(0, bar)
    const gpus = [...line.slice(bar + 1).matchAll(/(?:^|,)gpu(?::[\w.-]+)?:(\d+)/g)].reduce(
      (n, m) => n + Number(m[1]),
      0,
    )
    most.set(partition, Math.max(most.get(partition) ?? 0, gpus))
  }
  return most
}
