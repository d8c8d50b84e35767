/**
 * The sbatch script of a campaign (one job array: a task per node of each partition) and the sbatch command lines
 * that submit it. Pure: campaign in, text out. Directives are sbatch's own syntax (no shell quoting exists there), so
 * campaign.ts admits only plain words into them; everything the shell reads goes through shellQuote.
 */
import { type Campaign, campaignPaths, jobName, runDirOf, type Submission, submissions } from './campaign.ts'
import { shellQuote, shellWord } from './shell.ts'
import { renderTaskBody, SLURM_TASK } from './task-script.ts'

/** `0-3`, or `2` for a single task. */
export function arraySpec(s: Submission): string {
  return s.firstTask === s.lastTask ? `${s.firstTask}` : `${s.firstTask}-${s.lastTask}`
}

/** The arguments of one submission, before the script's path (what varies between partitions). */
export function submissionArgs(s: Submission): string[] {
  return ['--parsable', `--array=${arraySpec(s)}`, ...(s.partition ? [`--partition=${s.partition}`] : [])]
}

function directives(c: Campaign): string[] {
  const paths = campaignPaths(runDirOf(c))
  const [only] = submissions(c)
  const single = c.partitions.length <= 1 && only
  return [
    `--job-name=${jobName(c.runId)}`,
    `--comment=virnucpro-bench:${c.runId}`,
    // One node, one task: the suites inside start their own processes on that node's GPUs.
    '--nodes=1',
    '--ntasks=1',
    ...(c.cpusPerTask !== null ? [`--cpus-per-task=${c.cpusPerTask}`] : []),
    ...(c.gpusPerNode > 0 ? [`--gres=gpu:${c.gpusPerNode}`] : []),
    `--time=${c.timeLimitMin}`,
    ...(c.account ? [`--account=${c.account}`] : []),
    ...(c.qos ? [`--qos=${c.qos}`] : []),
    ...(c.exclusive ? ['--exclusive'] : []),
    // Slurm creates no directories for its output file: the submit side makes logs/ before sbatch.
    `--output=${paths.logs}/task-%a.out`,
    '--open-mode=append',
    // The submitting environment travels (modules, conda, PATH to python and torch); the campaign's variables are
    // exported in the body, over it.
    '--export=ALL',
    ...(single ? [`--array=${arraySpec(only)}`, ...(only.partition ? [`--partition=${only.partition}`] : [])] : []),
  ].map((d) => `#SBATCH ${d}`)
}

/** The sbatch command lines that submit the script at `scriptPath`, one per partition. */
export function submitCommands(c: Campaign, scriptPath: string): string[] {
  return submissions(c).map((s) => ['sbatch', ...submissionArgs(s), scriptPath].map(shellWord).join(' '))
}

/**
 * The whole script. Submitting it by hand (not through `slurm submit`) needs the probe and log directory the submit
 * side makes; the header says how.
 * @throws nothing; validate the campaign first (campaign.ts validateCampaign).
 */
export function renderSbatchScript(c: Campaign): string {
  const paths = campaignPaths(runDirOf(c))
  const header = [
    '#!/bin/bash',
    ...directives(c),
    `# virnucpro-bench campaign, run ${c.runId}: the gpu suites on every task's node, records into ${runDirOf(c)}.`,
    '# Submitted by `virnucpro-bench slurm submit`. By hand: first',
    `#   mkdir -p ${shellQuote(paths.logs)} && echo ${shellQuote(c.probeToken)} > ${shellQuote(paths.probe)}`,
    '# then:',
    ...submitCommands(c, paths.script).map((line) => `#   ${line}`),
    '',
  ]
  return `${[...header, ...renderTaskBody(c, SLURM_TASK)].join('\n')}\n`
}
