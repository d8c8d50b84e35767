import { randomBytes } from 'node:crypto'
import { statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import type { Campaign } from '../cluster/campaign.ts'
import { validateCampaign } from '../cluster/campaign.ts'
import { campaignEnv, suiteFiles } from '../cluster/campaign-inputs.ts'
import { ClusterError, type ClusterErrorCode } from '../cluster/errors.ts'
import { DEFAULT_K8S_OPTIONS, renderK8sManifest } from '../cluster/k8s-manifest.ts'
import { checkLimits, slurmLimits } from '../cluster/limits.ts'
import { renderSbatchScript } from '../cluster/sbatch-script.ts'
import { type CampaignStatus, campaignStatus, cancelCampaign } from '../cluster/status.ts'
import { submitCampaign } from '../cluster/submit.ts'
import { resultsRoot } from '../engine/context.ts'
import { SHARD_ENV } from '../engine/shard-settings.ts'
import { REPO_ROOT } from '../pipeline/profiles.ts'
import { escapeControls } from '../platform/one-line.ts'
import { makeRunId } from '../results/run-id.ts'
import { type CommandSpec, parseCommand, selectSubcommand } from './command-spec.ts'
import { UnusableDataError } from './exit-codes.ts'
import { slurmCancelSpec, slurmSpec, slurmStatusSpec, slurmSubmitSpec } from './specs-slurm.ts'
import { parseIntegerOption, UsageError } from './usage-error.ts'

/** Where a --k8s manifest expects the checkout and the results root inside its image and pods. */
const K8S_REPO_DIR = '/opt/virnucpro-bench'
const K8S_RESULTS_ROOT = '/results'

/**
 * Refusals whose fix is on the command line or in the environment (exit 2): a campaign that cannot be rendered or that
 * the cluster cannot hold, no sbatch on PATH, an unknown partition, a job Slurm rejects, a run ID it has no job of.
 * The rest (exit 3) is the cluster or the results directory that cannot be used as they are.
 */
const USAGE_CODES: ReadonlySet<ClusterErrorCode> = new Set([
  'CLUSTER_BAD_CAMPAIGN',
  'CLUSTER_TOOL_MISSING',
  'CLUSTER_UNKNOWN_PARTITION',
  'CLUSTER_JOB_REJECTED',
  'CLUSTER_UNKNOWN_RUN',
])

/**
 * `virnucpro-bench slurm submit|status|cancel`. Exit 0; 2 bad arguments, or a campaign the cluster refuses or cannot
 * hold (one line, in the scheduler's words where it spoke); 3 the cluster or the results directory cannot be used.
 */
export async function run(args: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const selected = selectSubcommand(slurmSpec, args)
  if (!('spec' in selected)) throw new UsageError(`${slurmSpec.name}: expected a subcommand before options`)
  try {
    if (selected.spec === slurmSubmitSpec) return await submit(selected.args, env)
    if (selected.spec === slurmStatusSpec) return await status(selected.args, env)
    return await cancel(selected.args, env)
  } catch (error) {
    if (!(error instanceof ClusterError)) throw error
    const message = `${selected.spec.name}: ${error.message}`
    if (USAGE_CODES.has(error.code)) throw new UsageError(message, { cause: error })
    throw new UnusableDataError(message, { cause: error })
  }
}

/** parseArgs keeps the last of a repeated option silently; a list given twice must not lose its first half. */
function rejectRepeats(spec: CommandSpec, args: readonly string[]): void {
  const seen = new Set<string>()
  for (const arg of args) {
    if (arg === '--') break
    const name = /^--([^=]+)/.exec(arg)?.[1]
    if (name === undefined) continue
    if (seen.has(name)) throw new UsageError(`${spec.name}: --${name} given twice; give a list once, comma-separated`)
    seen.add(name)
  }
}

const list = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((item) => item.trim())
    .filter((item) => item !== '')

function checkModeOptions(values: SubmitValues): void {
  const name = slurmSubmitSpec.name
  if (values.k8s && !values['dry-run'])
    throw new UsageError(`${name}: --k8s renders a manifest; give it with --dry-run (then: kubectl apply -f FILE)`)
  if (!values.k8s && (values.image !== undefined || values.claim !== undefined))
    throw new UsageError(`${name}: --image and --claim belong to --k8s`)
  if (values.k8s && (values.partition !== undefined || values.account !== undefined || values.qos !== undefined))
    throw new UsageError(`${name}: --partition, --account and --qos are Slurm's; a Kubernetes Job has none`)
  if (values.device !== undefined && !['gpu', 'cpu'].includes(values.device))
    throw new UsageError(`${name}: --device must be gpu or cpu, got '${values.device}'`)
}

type SubmitValues = ReturnType<typeof parseCommand<typeof slurmSubmitSpec>>['values']
type CountOption = 'nodes' | 'gpus-per-node' | 'cpus-per-task' | 'time-limit-min'

/** The submit options and the campaign they describe. @throws UsageError; ClusterError CLUSTER_BAD_CAMPAIGN. */
export function parseSubmit(args: string[], env: NodeJS.ProcessEnv = process.env) {
  rejectRepeats(slurmSubmitSpec, args)
  const { values } = parseCommand(slurmSubmitSpec, args)
  checkModeOptions(values)
  return { values, campaign: campaignOf(values, env) }
}

/** The shard suite's test file: what every task of a sharded production run runs (benchmarks/shard.gpu.test.ts). */
const SHARD_SUITE = 'shard'

/**
 * A sharded production run: the input every task reads (VIRNUCPRO_BENCH_INPUT, absolute: the nodes see the same path)
 * and each task's shard (VIRNUCPRO_BENCH_SHARD=i/N); with --one-node the last task reads all of it (0/1), so N nodes
 * against one is measured rather than projected. null without --shard-input.
 * @throws UsageError for --one-node or --suites beside it, an input that is not a file, too few tasks for --one-node.
 */
function shardedRun(values: SubmitValues, tasks: number) {
  const name = slurmSubmitSpec.name
  const input = values['shard-input']
  if (input === undefined) {
    if (values['one-node']) throw new UsageError(`${name}: --one-node belongs to --shard-input`)
    return null
  }
  if (values.suites !== undefined) throw new UsageError(`${name}: --shard-input runs the shard suite; drop --suites`)
  const path = resolve(input)
  if (!statSync(path, { throwIfNoEntry: false })?.isFile())
    throw new UsageError(
      `${name}: --shard-input '${input}' is not a file (a FASTA, .fa.gz, on a filesystem the nodes share)`,
    )
  const oneNode = values['one-node'] === true
  // One shard against one node would run the same whole input twice and compare it with itself.
  if (oneNode && tasks < 3)
    throw new UsageError(
      `${name}: --one-node needs at least 3 tasks (2 or more shards and the one-node task), got ${tasks}`,
    )
  const shards = oneNode ? tasks - 1 : tasks
  const taskEnv = Array.from({ length: tasks }, (_, i) => ({
    [SHARD_ENV]: i < shards ? `${i}/${shards}` : '0/1',
  }))
  return { env: { VIRNUCPRO_BENCH_INPUT: path }, taskEnv }
}

function campaignOf(values: SubmitValues, env: NodeJS.ProcessEnv): Campaign {
  const count = (option: CountOption, min: number) =>
    parseIntegerOption(slurmSubmitSpec.name, option, values[option], min)
  const k8s = values.k8s === true
  const root = values['results-dir'] ? resolve(values['results-dir']) : k8s ? K8S_RESULTS_ROOT : resultsRoot(env)
  const partitions = list(values.partition)
  const nodesPerPartition = count('nodes', 1) ?? 1
  const sharded = shardedRun(values, Math.max(1, partitions.length) * nodesPerPartition)
  return {
    runId: values['run-id'] ?? (env.VIRNUCPRO_BENCH_RUN_ID?.trim() || makeRunId()),
    resultsRoot: root,
    repoDir: k8s ? K8S_REPO_DIR : REPO_ROOT.replace(/\/$/, ''),
    nodeExe: values['node-exe'] ?? (k8s ? 'node' : process.execPath),
    partitions,
    nodesPerPartition,
    gpusPerNode: count('gpus-per-node', 0) ?? 0,
    cpusPerTask: count('cpus-per-task', 1) ?? null,
    timeLimitMin: count('time-limit-min', 1) ?? 60,
    account: values.account ?? null,
    qos: values.qos ?? null,
    exclusive: values.exclusive === true,
    suiteFiles: suiteFiles(sharded ? [SHARD_SUITE] : list(values.suites), REPO_ROOT),
    env: campaignEnv(env, list(values.export), {
      VIRNUCPRO_BENCH_DEVICE: values.device ?? 'gpu',
      ...sharded?.env,
    }),
    taskEnv: sharded?.taskEnv ?? [],
    probeToken: randomBytes(8).toString('hex'),
  }
}

async function submit(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, campaign } = parseSubmit(args, env)
  validateCampaign(campaign)
  // A dry run too: a script that no cluster would take is no preview of anything.
  checkLimits(campaign, values.k8s ? null : await slurmLimits({ env }))
  if (values['dry-run']) {
    const k8s = {
      image: values.image ?? DEFAULT_K8S_OPTIONS.image,
      claimName: values.claim ?? DEFAULT_K8S_OPTIONS.claimName,
    }
    process.stdout.write(values.k8s ? renderK8sManifest(campaign, k8s) : renderSbatchScript(campaign))
    return 0
  }
  const submitted = await submitCampaign(campaign, { env })
  const jobs = submitted.jobs.map(
    (j) => `job ${j.jobId} (${j.partition ?? 'default partition'}, tasks ${j.firstTask}-${j.lastTask})`,
  )
  console.log(
    [
      `run ${campaign.runId}: submitted ${jobs.join(', ')}`,
      `  records: ${submitted.runDir}`,
      `  status:  virnucpro-bench slurm status ${campaign.runId}${values['results-dir'] ? ` --results-dir ${campaign.resultsRoot}` : ''}`,
      `  report:  virnucpro-bench report ${submitted.runDir}   (once every task has ended)`,
      `  script:  ${submitted.scriptPath}`,
    ].join('\n'),
  )
  return 0
}

function runIdOperand(spec: CommandSpec, positionals: string[]): string {
  if (positionals.length !== 1) throw new UsageError(`${spec.name}: expected one RUN_ID, got ${positionals.length}`)
  return positionals[0]!
}

const clock = (s: number | null) => (s === null ? '' : `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`)

/** The status as lines a person reads. Pure. */
export function statusLines(s: CampaignStatus): string[] {
  const lines = [`run ${s.runId}: ${s.tasks.length} task(s), ${s.records} record(s) in ${s.runDir}`]
  for (const t of s.tasks) {
    const parts = [`task ${t.index}`, t.state.padEnd(10), t.host ? `on ${t.host}` : '', clock(t.usedS)]
    if (t.exitCode !== null) parts.push(`exit ${t.exitCode}`)
    lines.push(`  ${parts.filter(Boolean).join('  ')}`)
    if (t.note) lines.push(`    ${t.note}`)
  }
  lines.push(s.finished ? `every task has ended: virnucpro-bench report ${s.runDir}` : 'tasks still queued or running')
  return lines
}

async function status(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { values, positionals } = parseCommand(slurmStatusSpec, args)
  const runId = runIdOperand(slurmStatusSpec, positionals)
  const root = values['results-dir'] ? resolve(values['results-dir']) : resultsRoot(env)
  const found = await campaignStatus(runId, join(root, runId), { env })
  // Task notes and hosts are stored text: one line each, controls escaped.
  console.log(values.json ? JSON.stringify(found, null, 2) : statusLines(found).map(escapeControls).join('\n'))
  return 0
}

async function cancel(args: string[], env: NodeJS.ProcessEnv): Promise<number> {
  const { positionals } = parseCommand(slurmCancelSpec, args)
  const runId = runIdOperand(slurmCancelSpec, positionals)
  const ids = await cancelCampaign(runId, { env })
  console.log(`run ${runId}: cancelled job(s) ${ids.join(', ')}`)
  return 0
}
