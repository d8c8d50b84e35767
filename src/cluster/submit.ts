/**
 * Submitting a campaign: checks first (sbatch on PATH, partitions known to sinfo, the campaign renderable), then the
 * run directory's campaign files, then one sbatch per partition. Any failure after the first write undoes what was
 * done (jobs already accepted are cancelled, the files removed), so a refused campaign leaves nothing behind.
 */
import { type Campaign, campaignPaths, runDirOf, submissions, validateCampaign } from './campaign.ts'
import { type CampaignManifest, prepareCampaignDir, writeManifest } from './campaign-files.ts'
import { type CommandOptions, cancelJobs, listPartitions, runTool, submitScript } from './commands.ts'
import { ClusterError } from './errors.ts'
import { renderSbatchScript, submissionArgs } from './sbatch-script.ts'

export interface Submitted {
  runDir: string
  scriptPath: string
  jobs: CampaignManifest['jobs']
}

/** @throws ClusterError CLUSTER_UNKNOWN_PARTITION naming the partition and those sinfo lists. */
async function checkPartitions(c: Campaign, options: CommandOptions): Promise<void> {
  if (c.partitions.length === 0) return
  const known = await listPartitions(options)
  const unknown = c.partitions.find((p) => !known.includes(p))
  if (unknown !== undefined)
    throw new ClusterError(
      'CLUSTER_UNKNOWN_PARTITION',
      `unknown partition '${unknown}' (sinfo lists: ${known.join(', ') || 'none'})`,
    )
}

/**
 * Submits the campaign's job arrays.
 * @throws ClusterError: CLUSTER_BAD_CAMPAIGN, CLUSTER_TOOL_MISSING (no sbatch), CLUSTER_UNKNOWN_PARTITION,
 * CLUSTER_RESULTS_DIR, CLUSTER_JOB_REJECTED (sbatch's own message); nothing is left submitted or written then.
 */
export async function submitCampaign(c: Campaign, options: CommandOptions = {}): Promise<Submitted> {
  validateCampaign(c)
  await runTool('sbatch', ['--version'], options)
  await checkPartitions(c, options)
  const runDir = runDirOf(c)
  const scriptPath = campaignPaths(runDir).script
  const undo = await prepareCampaignDir(c, renderSbatchScript(c))
  const jobs: Submitted['jobs'] = []
  try {
    for (const s of submissions(c)) {
      const jobId = await submitScript(scriptPath, submissionArgs(s), { ...options, cwd: c.repoDir })
      jobs.push({ ...s, jobId })
    }
    await writeManifest(c, jobs)
  } catch (error) {
    // Best effort: the error the user must see is the one that stopped the submission.
    await cancelJobs(
      jobs.map((j) => j.jobId),
      options,
    ).catch(() => {})
    await undo().catch(() => {})
    throw error
  }
  return { runDir, scriptPath, jobs }
}
