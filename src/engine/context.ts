/**
 * What every suite shares within one vitest invocation: the run ID (from the global setup), the results directory
 * `results/<runId>/` (root overridable by VIRNUCPRO_BENCH_RESULTS_DIR), the thresholds in force, the target profile,
 * where scratch files and the run journal go, and the writer lock that makes this invocation that journal's only
 * writer (src/results/writer-lock.ts).
 */
import { join, resolve } from 'node:path'
import { loadThresholds, type Thresholds } from '../config/thresholds.ts'
import type { InputResolver } from '../input/resolver.ts'
import { REPO_ROOT, selectProfile, type TargetProfile } from '../pipeline/profiles.ts'
import { runDirectory } from '../results/store.ts'
import { acquireWriter, releaseWriter, startHeartbeat, type WriterClaim } from '../results/writer-lock.ts'
import { campaignTask } from './settings.ts'

export interface SuiteContext {
  runId: string
  /** `results/<runId>`: one JSON file per record. */
  resultsDir: string
  /**
   * Target outputs, logs and the run journal (every finished run, kept as it ends): `<resultsDir>/work` (in a campaign
   * task, `work/<task>`: never another host's runs).
   */
  workDir: string
  /** This invocation's claim on `workDir` (its token is the journal's invocation). */
  writer: Required<Pick<WriterClaim, 'token'>>
  /** The campaign task this invocation is (settings.ts campaignTask), or null/absent outside a campaign. */
  task?: string | null
  thresholds: Thresholds
  profile: TargetProfile
  /** The target's checkout (VIRNUCPRO_DIR) for provenance; null for the bundled reference pipeline. */
  targetDir: string | null
  /**
   * The input resolver the suites took their inputs from, so records can name them (absent: records say null), and
   * where the capacity design takes a size it adds (without `resize`: repeats at the measured sizes only).
   */
  inputs?: Pick<InputResolver, 'provenanceOf' | 'user'> & Partial<Pick<InputResolver, 'resize' | 'sizeLimit'>>
}

/** `results/` at the repository root, or VIRNUCPRO_BENCH_RESULTS_DIR. */
export function resultsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(REPO_ROOT, env.VIRNUCPRO_BENCH_RESULTS_DIR?.trim() || 'results')
}

/** The work directory of a run directory: `work`, or `work/<task>` in a campaign task. */
export function workDirOf(resultsDir: string, task: string | null): string {
  return join(resultsDir, 'work', ...(task ? [task] : []))
}

/** This process's own claim, for contexts made outside a vitest invocation (library use, tests): one per process. */
const PROCESS_CLAIM: Required<Pick<WriterClaim, 'token'>> = { token: `process-${process.pid}-${Date.now()}` }
const processLocks = new Set<string>()

function holdForThisProcess(workDir: string): void {
  if (processLocks.size === 0)
    process.once('exit', () => {
      for (const dir of processLocks) releaseWriter(dir, PROCESS_CLAIM.token)
    })
  if (processLocks.has(workDir)) return
  processLocks.add(workDir)
  startHeartbeat(workDir, PROCESS_CLAIM.token)
}

/**
 * @param writer the invocation's claim (the gpu project's global setup takes the lock for its whole invocation and
 *   hands its token to every worker); absent: this process claims the work directory itself, until it exits.
 * @throws SettingError for a VIRNUCPRO_BENCH_TASK that is no single directory name; ThresholdsConfigError for a bad
 *   thresholds file; TargetConfigError for an unknown target name;
 *   WriterBusyError when another invocation writes the same work directory.
 */
export async function createSuiteContext(
  runId: string,
  env: NodeJS.ProcessEnv = process.env,
  root = resultsRoot(env),
  writer?: WriterClaim,
): Promise<SuiteContext> {
  const resultsDir = runDirectory(root, runId)
  const task = campaignTask(env)
  const workDir = workDirOf(resultsDir, task)
  const claim = writer ?? PROCESS_CLAIM
  await acquireWriter(workDir, claim)
  if (!writer) holdForThisProcess(workDir)
  const profile = selectProfile(undefined, env)
  return {
    runId,
    resultsDir,
    workDir,
    writer: { token: claim.token },
    task,
    thresholds: loadThresholds(env),
    profile,
    targetDir: profile.name === 'virnucpro' ? (env.VIRNUCPRO_DIR ?? null) : null,
  }
}
