/**
 * What every suite shares within one vitest invocation: the run ID (from the global setup), the results directory
 * `results/<runId>/` (root overridable by VIRNUCPRO_BENCH_RESULTS_DIR), the thresholds in force, the target profile,
 * and where scratch files and the shared-run cache go.
 */
import { mkdir } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import { loadThresholds, type Thresholds } from '../config/thresholds.ts'
import { runDirectory } from '../results/store.ts'
import { REPO_ROOT, selectProfile, type TargetProfile } from '../target/profiles.ts'
import type { InputResolver } from './input.ts'
import { campaignTask } from './settings.ts'

export interface SuiteContext {
  runId: string
  /** `results/<runId>`: one JSON file per record. */
  resultsDir: string
  /** Scratch space for target outputs and logs: `<resultsDir>/work` (in a campaign task, `work/<task>`). */
  workDir: string
  /** Shared-run cache: `<resultsDir>/runs-cache` (in a campaign task, `runs-cache/<task>`: never another host's runs). */
  cacheDir: string
  /** The campaign task this invocation is (settings.ts campaignTask), or null/absent outside a campaign. */
  task?: string | null
  thresholds: Thresholds
  profile: TargetProfile
  /** The target's checkout (VIRNUCPRO_DIR) for provenance; null for the bundled reference pipeline. */
  targetDir: string | null
  /** The input resolver the suites took their inputs from, so records can name them; absent: records say null. */
  inputs?: Pick<InputResolver, 'provenanceOf'>
}

/** `results/` at the repository root, or VIRNUCPRO_BENCH_RESULTS_DIR. */
export function resultsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return resolve(REPO_ROOT, env.VIRNUCPRO_BENCH_RESULTS_DIR?.trim() || 'results')
}

/**
 * @throws ThresholdsConfigError for a bad thresholds file; TargetConfigError for an unknown target name.
 */
export async function createSuiteContext(
  runId: string,
  env: NodeJS.ProcessEnv = process.env,
  root = resultsRoot(env),
): Promise<SuiteContext> {
  const resultsDir = runDirectory(root, runId)
  const task = campaignTask(env)
  const workDir = join(resultsDir, 'work', ...(task ? [task] : []))
  await mkdir(workDir, { recursive: true })
  const profile = selectProfile(undefined, env)
  return {
    runId,
    resultsDir,
    workDir,
    cacheDir: join(resultsDir, 'runs-cache', ...(task ? [task] : [])),
    task,
    thresholds: loadThresholds(env),
    profile,
    targetDir: profile.name === 'virnucpro' ? (env.VIRNUCPRO_DIR ?? null) : null,
  }
}
