/**
 * A benchmark campaign as data: which suites run where, under which run ID, into which shared results directory.
 * The renderers (sbatch-script.ts, k8s-manifest.ts) turn it into job specs; nothing here runs anything.
 */
import { join } from 'node:path'
import { ClusterError } from './errors.ts'
import { isExportableName } from './shell.ts'

export interface Campaign {
  /** One run ID for every task (VIRNUCPRO_BENCH_RUN_ID): all records land in one run directory. */
  runId: string
  /** The results root (VIRNUCPRO_BENCH_RESULTS_DIR), absolute, on a filesystem every node mounts. */
  resultsRoot: string
  /** The suite's checkout, absolute: each task runs vitest there (it must be on a shared filesystem too). */
  repoDir: string
  /** The node executable each task runs vitest with (absolute, or a name on the node's PATH). */
  nodeExe: string
  /** One array submission per partition; empty: one submission to the cluster's default partition. */
  partitions: readonly string[]
  /** Array tasks per partition, each on one node. */
  nodesPerPartition: number
  /** GPUs each task asks for (`--gres=gpu:K`); 0 asks for none. */
  gpusPerNode: number
  /** `--cpus-per-task`; null: the cluster's default. */
  cpusPerTask: number | null
  /** Wall-clock limit of each task in minutes (`--time`). */
  timeLimitMin: number
  account: string | null
  qos: string | null
  /** `--exclusive`: no other job shares a task's node (wanted for timings). */
  exclusive: boolean
  /** Vitest test files relative to repoDir; empty: the whole gpu project. */
  suiteFiles: readonly string[]
  /** Variables every task exports. */
  env: Readonly<Record<string, string>>
  /**
   * Variables of one task only, by global task index (empty objects, or an empty list, for none). The seam for sharded
   * inputs: task i of n gets its shard (`VIRNUCPRO_BENCH_SHARD=i/n`) here.
   */
  taskEnv: readonly Readonly<Record<string, string>>[]
  /** Written by the submit side into the run directory before submitting; each task checks that it sees it. */
  probeToken: string
}

/** Every task's array index range in one submission (inclusive), with its partition (null: the default). */
export interface Submission {
  partition: string | null
  firstTask: number
  lastTask: number
}

/** `<resultsRoot>/<runId>`: where every task's records land. */
export function runDirOf(c: Pick<Campaign, 'resultsRoot' | 'runId'>): string {
  return join(c.resultsRoot, c.runId)
}

/** Where a campaign keeps its own files inside the run directory (records stay at the top, as in any run). */
export function campaignPaths(runDir: string) {
  const dir = join(runDir, 'campaign')
  return {
    dir,
    script: join(dir, 'job.sh'),
    manifest: join(dir, 'campaign.json'),
    probe: join(dir, 'probe'),
    logs: join(dir, 'logs'),
    tasks: join(dir, 'tasks'),
  }
}

/** The job name every task of a run carries: status and cancel find the run's jobs by it. */
export function jobName(runId: string): string {
  return `vnpb-${runId}`
}

export function taskCount(c: Campaign): number {
  return Math.max(1, c.partitions.length) * c.nodesPerPartition
}

/** One submission per partition, task indices global across them (so every task of the run has its own index). */
export function submissions(c: Campaign): Submission[] {
  const parts = c.partitions.length > 0 ? c.partitions : [null]
  return parts.map((partition, i) => ({
    partition,
    firstTask: i * c.nodesPerPartition,
    lastTask: (i + 1) * c.nodesPerPartition - 1,
  }))
}

// Names sbatch reads from `#SBATCH` lines, where no quoting exists: a word of these characters only.
const SLURM_WORD = /^[A-Za-z0-9._-]+$/
// `--output` paths: Slurm expands `%` there, and a directive line cannot quote whitespace.
const DIRECTIVE_PATH = /^\/[^\s%"'\\]*$/

function bad(message: string): never {
  throw new ClusterError('CLUSTER_BAD_CAMPAIGN', message)
}

function checkCount(name: string, value: number, min: number): void {
  if (!Number.isSafeInteger(value) || value < min) bad(`${name} must be an integer >= ${min}, got ${value}`)
}

function checkEnv(where: string, env: Readonly<Record<string, string>>): void {
  for (const [name, value] of Object.entries(env)) {
    if (!isExportableName(name))
      bad(`${where}: '${name}' cannot be exported (a variable name, not one of bash's or the job script's own)`)
    if (value.includes('\0')) bad(`${where}: ${name}'s value holds a NUL byte, which no environment can carry`)
  }
}

/** @throws ClusterError CLUSTER_BAD_CAMPAIGN naming the first field a job spec cannot carry. */
export function validateCampaign(c: Campaign): void {
  if (!SLURM_WORD.test(c.runId)) bad(`run ID '${c.runId}' may hold only letters, digits, '.', '_' and '-'`)
  if (!DIRECTIVE_PATH.test(c.resultsRoot))
    bad(
      `results directory '${c.resultsRoot}' must be absolute, without whitespace, quotes, '%' or '\\' (sbatch --output)`,
    )
  const names: [string, string | null][] = [
    ...c.partitions.map((p): [string, string] => ['partition', p]),
    ['account', c.account],
    ['qos', c.qos],
  ]
  for (const [what, value] of names)
    if (value !== null && !SLURM_WORD.test(value))
      bad(`${what} '${value}' may hold only letters, digits, '.', '_' and '-'`)
  if (new Set(c.partitions).size !== c.partitions.length) bad(`partition listed twice: ${c.partitions.join(',')}`)
  checkCount('nodes per partition', c.nodesPerPartition, 1)
  checkCount('GPUs per node', c.gpusPerNode, 0)
  if (c.cpusPerTask !== null) checkCount('CPUs per task', c.cpusPerTask, 1)
  checkCount('time limit (minutes)', c.timeLimitMin, 1)
  checkEnv('environment', c.env)
  for (const [i, env] of c.taskEnv.entries()) checkEnv(`task ${i}'s environment`, env)
  if (c.taskEnv.length > taskCount(c)) bad(`${c.taskEnv.length} task environments for ${taskCount(c)} tasks`)
  if (!/^[A-Za-z0-9]+$/.test(c.probeToken)) bad('the probe token must be letters and digits')
}
