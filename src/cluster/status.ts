/**
 * A campaign's state from both sides: the scheduler's (squeue, by the run's job name) and the run directory's (each
 * task's check-in and exit files). A task the queue no longer lists that never checked in is said to be so, with its
 * log: the usual reason is a results directory its node does not share.
 */
import { campaignPaths, jobName } from './campaign.ts'
import { type CampaignManifest, countRecords, readManifest, readTaskFiles } from './campaign-files.ts'
import { type CommandOptions, cancelJobs, queueRows } from './commands.ts'
import { ClusterError } from './errors.ts'
import type { QueueRow } from './parse.ts'

/** Job states after which Slurm runs nothing more of the job (squeue's long names). */
const FINAL_STATES = new Set([
  'COMPLETED',
  'FAILED',
  'CANCELLED',
  'TIMEOUT',
  'NODE_FAIL',
  'PREEMPTED',
  'BOOT_FAIL',
  'DEADLINE',
  'OUT_OF_MEMORY',
])

export const isFinalState = (state: string) => FINAL_STATES.has(state)

export interface TaskStatus {
  index: number
  /** squeue's state while Slurm remembers the task; else what its files say (COMPLETED, FAILED), else UNKNOWN. */
  state: string
  jobId: string | null
  host: string | null
  usedS: number | null
  /** The task's vitest exit status (0: every test passed), once it ended. */
  exitCode: number | null
  /** Why it waits, or what went wrong; null when there is nothing to say. */
  note: string | null
  log: string
}

export interface CampaignStatus {
  runId: string
  runDir: string
  manifest: CampaignManifest | null
  tasks: TaskStatus[]
  /** Record files in the run directory now. */
  records: number
  /** Every task ended (by the queue or by its files). */
  finished: boolean
}

function taskStatus(
  index: number,
  row: QueueRow | undefined,
  files: Awaited<ReturnType<typeof readTaskFiles>>,
  log: string,
): TaskStatus {
  const exitCode = files.done?.exitCode ?? null
  const fromFiles = exitCode === null ? 'UNKNOWN' : exitCode === 0 ? 'COMPLETED' : 'FAILED'
  const state = row?.state ?? fromFiles
  let note: string | null = null
  if (row?.state === 'PENDING') note = `waiting: ${row.reason}`
  else if ((row === undefined || isFinalState(row.state)) && files.started === null && row?.state !== 'CANCELLED')
    note = `ended without reaching the results directory (not shared with its node?): see ${log}`
  else if (exitCode !== null && exitCode !== 0) note = `vitest exited ${exitCode}: see ${log}`
  return {
    index,
    state,
    jobId: row?.jobId ?? files.started?.jobId ?? null,
    host: files.started?.host ?? (row?.nodes || null),
    usedS: row?.usedS ?? null,
    exitCode,
    note,
    log,
  }
}

/**
 * @throws ClusterError CLUSTER_UNKNOWN_RUN when neither the queue nor the run directory knows the run; the errors of
 * commands.ts when squeue cannot be asked.
 */
export async function campaignStatus(
  runId: string,
  runDir: string,
  options: CommandOptions = {},
): Promise<CampaignStatus> {
  const rows = await queueRows(jobName(runId), options)
  const manifest = await readManifest(runDir)
  if (rows.length === 0 && manifest === null)
    throw new ClusterError(
      'CLUSTER_UNKNOWN_RUN',
      `no job named ${jobName(runId)} in the queue and no campaign in ${campaignPaths(runDir).dir}: give the run ID slurm submit printed (and its --results-dir, when it was given one)`,
    )
  const count = manifest?.tasks ?? Math.max(0, ...rows.map((r) => (r.taskIndex ?? 0) + 1))
  const tasks: TaskStatus[] = []
  for (let index = 0; index < count; index++) {
    const row = rows.find((r) => r.taskIndex === index)
    const log = `${campaignPaths(runDir).logs}/task-${index}.out`
    tasks.push(taskStatus(index, row, await readTaskFiles(runDir, index), log))
  }
  const finished = tasks.every((t) => isFinalState(t.state) || t.state === 'UNKNOWN')
  return { runId, runDir, manifest, tasks, records: await countRecords(runDir), finished }
}

/**
 * Cancels every pending or running task of the run; returns the job ids given to scancel.
 * @throws ClusterError CLUSTER_UNKNOWN_RUN when the run has no such task in the queue.
 */
export async function cancelCampaign(runId: string, options: CommandOptions = {}): Promise<string[]> {
  const active = (await queueRows(jobName(runId), options)).filter((r) => !isFinalState(r.state))
  if (active.length === 0)
    throw new ClusterError(
      'CLUSTER_UNKNOWN_RUN',
      `run ${runId} has no pending or running job (job name ${jobName(runId)}): nothing to cancel; 'slurm status ${runId}' shows how its tasks ended`,
    )
  const ids = [...new Set(active.map((r) => r.arrayJobId))]
  await cancelJobs(ids, options)
  return ids
}
