/**
 * What a campaign asks of the cluster, checked before anything is rendered or submitted (a dry run too): an array no
 * larger than Slurm's MaxArraySize, GPUs per task that some node has, a node executable that exists. The cluster is
 * asked where it can be (scontrol, sinfo); where it cannot (a dry run off the cluster), Slurm's defaults and what
 * hardware exists stand in, and the message says which.
 */
import { accessSync, constants, statSync } from 'node:fs'
import { isAbsolute } from 'node:path'
import { type Campaign, submissions } from './campaign.ts'
import { type CommandOptions, runTool } from './commands.ts'
import { ClusterError } from './errors.ts'
import { parseGpusPerPartition, parseMaxArraySize } from './parse.ts'

/** slurm.conf's default MaxArraySize: array task indices run 0 .. MaxArraySize - 1. */
export const SLURM_DEFAULT_MAX_ARRAY_SIZE = 1001
/** Kubernetes refuses an Indexed Job of more completions than this. */
export const K8S_MAX_COMPLETIONS = 100_000
/** The most GPUs a node is built with (DGX-2, HGX-2: 16): the bound when the cluster cannot be asked. */
export const MAX_GPUS_PER_NODE_BUILT = 16

export interface ClusterLimits {
  /** Largest array task index + 1, and where the figure came from. */
  maxArraySize: { value: number; from: string }
  /** The most GPUs a node of each partition has (sinfo); null when sinfo could not be asked. */
  gpusPerPartition: Map<string, number> | null
}

function bad(message: string): never {
  throw new ClusterError('CLUSTER_BAD_CAMPAIGN', message)
}

/** A healthy slurmctld answers in milliseconds; a broken configuration can keep scontrol trying for a minute. */
const ASK_TIMEOUT_MS = 5_000

/** The limits of the cluster this machine reaches, or Slurm's defaults when it reaches none. Never throws. */
export async function slurmLimits(options: CommandOptions = {}): Promise<ClusterLimits> {
  const quick = { ...options, timeoutMs: options.timeoutMs ?? ASK_TIMEOUT_MS }
  const [maxArraySize, gpusPerPartition] = await Promise.all([
    runTool('scontrol', ['show', 'config'], quick)
      .then((out) => ({ value: parseMaxArraySize(out), from: "this cluster's (scontrol show config)" }))
      .catch(() => ({ value: SLURM_DEFAULT_MAX_ARRAY_SIZE, from: "Slurm's default (scontrol did not answer)" })),
    runTool('sinfo', ['--noheader', '--format=%R|%G'], quick)
      .then(parseGpusPerPartition)
      .catch(() => null),
  ])
  return { maxArraySize, gpusPerPartition }
}

function checkArraySize(c: Campaign, limits: ClusterLimits): void {
  const last = Math.max(...submissions(c).map((s) => s.lastTask))
  const { value, from } = limits.maxArraySize
  if (last <= value - 1) return
  bad(
    `${last + 1} tasks (--nodes x partitions) need array indices 0-${last}, above MaxArraySize ${value}, ${from}: give at most ${value} tasks, or ask the cluster's admins to raise MaxArraySize`,
  )
}

function checkGpus(c: Campaign, limits: ClusterLimits | null): void {
  const asked = c.gpusPerNode
  const known = limits?.gpusPerPartition
  if (!known) {
    const unasked = limits === null ? '' : " (sinfo did not answer to say this cluster's)"
    if (asked > MAX_GPUS_PER_NODE_BUILT)
      bad(
        `--gpus-per-node ${asked}: no node is built with more than ${MAX_GPUS_PER_NODE_BUILT} GPUs${unasked}: give the GPUs one node has`,
      )
    return
  }
  const partitions = c.partitions.length > 0 ? c.partitions : [...known.keys()]
  for (const partition of partitions) {
    const most = known.get(partition)
    if (most === undefined || asked <= most) continue
    const fix =
      most === 0 ? 'give --gpus-per-node 0 (with --device cpu the suites run on the CPU)' : `give at most ${most}`
    bad(
      `--gpus-per-node ${asked}: no node of partition ${partition} has that many GPUs (sinfo: ${most} at most): ${fix}`,
    )
  }
}

/** An absolute --node-exe must be an executable here: the nodes share this checkout's filesystem, not another. */
function checkNodeExe(c: Campaign): void {
  if (!isAbsolute(c.nodeExe)) return
  try {
    if (!statSync(c.nodeExe).isFile()) throw new Error('not a file')
    accessSync(c.nodeExe, constants.X_OK)
  } catch (error) {
    const why = (error as NodeJS.ErrnoException).code ?? (error as Error).message
    bad(
      `--node-exe '${c.nodeExe}' is not an executable file here (${why}): give a path every node has (this one: ${process.execPath}), or a command on the nodes' PATH such as node`,
    )
  }
}

/**
 * @param limits the Slurm cluster's (slurmLimits); null for a Kubernetes manifest.
 * @throws ClusterError CLUSTER_BAD_CAMPAIGN naming the option, the limit, where it came from and what to give.
 */
export function checkLimits(c: Campaign, limits: ClusterLimits | null): void {
  if (limits === null) {
    const tasks = Math.max(...submissions(c).map((s) => s.lastTask)) + 1
    if (tasks > K8S_MAX_COMPLETIONS)
      bad(`${tasks} tasks: an Indexed Job holds at most ${K8S_MAX_COMPLETIONS} completions: give fewer --nodes`)
  } else {
    checkArraySize(c, limits)
    checkNodeExe(c)
  }
  checkGpus(c, limits)
}
