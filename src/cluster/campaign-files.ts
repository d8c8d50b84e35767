/**
 * The campaign's own files in the run directory (campaign.ts campaignPaths): what the submit side writes before
 * sbatch (script, probe, log directory) and after it (campaign.json), and what tasks leave (check-in and exit files).
 */
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises'
import os from 'node:os'
import { type Campaign, campaignPaths, runDirOf, type Submission, taskCount } from './campaign.ts'
import { ClusterError } from './errors.ts'

/** campaign.json: what was submitted, so that status knows the tasks to expect. */
export interface CampaignManifest {
  runId: string
  submittedAt: string
  submitHost: string
  tasks: number
  suiteFiles: string[]
  jobs: (Submission & { jobId: string })[]
}

/** A task's check-in (`tasks/<i>.started.json`) and exit (`tasks/<i>.done.json`), as the task wrote them. */
export interface TaskFiles {
  started: { host: string; jobId: string; startedAt: string } | null
  done: { host: string; exitCode: number; endedAt: string } | null
}

async function exists(path: string): Promise<boolean> {
  return (await stat(path).catch(() => null)) !== null
}

function resultsDirError(path: string, error: unknown): ClusterError {
  const reason = (error as Error).message
  return new ClusterError('CLUSTER_RESULTS_DIR', `cannot write the results directory ${path}: ${reason}`, {
    cause: error,
  })
}

/**
 * Writes script, probe and log directory. Returns an undo that removes exactly what this made (the run directory too
 * when this created it), for a submission that fails after.
 * @throws ClusterError CLUSTER_RESULTS_DIR when a campaign of this run is there already or the directory is not writable.
 */
export async function prepareCampaignDir(c: Campaign, script: string): Promise<() => Promise<void>> {
  const runDir = runDirOf(c)
  const paths = campaignPaths(runDir)
  if (await exists(paths.dir))
    throw new ClusterError(
      'CLUSTER_RESULTS_DIR',
      `run ${c.runId} already has a campaign in ${paths.dir}: give another --run-id (or none for a new one)`,
    )
  const runDirIsNew = !(await exists(runDir))
  const undo = async () => {
    await rm(runDirIsNew ? runDir : paths.dir, { recursive: true, force: true })
  }
  try {
    await mkdir(paths.logs, { recursive: true })
    await writeFile(paths.script, script, { mode: 0o755 })
    await writeFile(paths.probe, `${c.probeToken}\n`)
  } catch (error) {
    await undo().catch(() => {})
    throw resultsDirError(runDir, error)
  }
  return undo
}

export async function writeManifest(c: Campaign, jobs: CampaignManifest['jobs']): Promise<void> {
  const manifest: CampaignManifest = {
    runId: c.runId,
    submittedAt: new Date().toISOString(),
    submitHost: os.hostname(),
    tasks: taskCount(c),
    suiteFiles: [...c.suiteFiles],
    jobs,
  }
  const path = campaignPaths(runDirOf(c)).manifest
  try {
    await writeFile(path, `${JSON.stringify(manifest, null, 2)}\n`)
  } catch (error) {
    throw resultsDirError(path, error)
  }
}

async function readJson<T>(path: string): Promise<T | null> {
  try {
    return JSON.parse(await readFile(path, 'utf8')) as T
  } catch {
    return null // absent, or being written this moment: read again later
  }
}

export function readManifest(runDir: string): Promise<CampaignManifest | null> {
  return readJson(campaignPaths(runDir).manifest)
}

export async function readTaskFiles(runDir: string, index: number): Promise<TaskFiles> {
  const dir = campaignPaths(runDir).tasks
  return {
    started: await readJson(`${dir}/${index}.started.json`),
    done: await readJson(`${dir}/${index}.done.json`),
  }
}

/** How many record files the run directory holds now (top-level `*.json`, as the report reads them). */
export async function countRecords(runDir: string): Promise<number> {
  const names = await readdir(runDir).catch(() => [] as string[])
  return names.filter((name) => name.endsWith('.json') && !name.startsWith('.')).length
}
