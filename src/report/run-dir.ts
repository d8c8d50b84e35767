/**
 * Which results directory belongs to this vitest run. In order: an explicit run ID (reporter option or
 * VIRNUCPRO_BENCH_RUN_ID); the `runId` a project's global setup provided (`project.provide('runId', ...)`); else the
 * newest `results/<runId>/` that did not exist when this process's run started (created by this run's suites).
 */
import { readdir, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { isRunId } from '../results/run-id.ts'

export const DEFAULT_RESULTS_ROOT = 'results'
export const DEFAULT_REPORTS_DIR = 'reports'

export function resultsRoot(env: NodeJS.ProcessEnv = process.env): string {
  return env.VIRNUCPRO_BENCH_RESULTS_DIR?.trim() || DEFAULT_RESULTS_ROOT
}

export function reportsDir(option: string | undefined, env: NodeJS.ProcessEnv = process.env): string {
  return option ?? (env.VIRNUCPRO_BENCH_REPORTS_DIR?.trim() || DEFAULT_REPORTS_DIR)
}

/** Run-ID directories under `root` (empty when `root` does not exist). */
export async function listRunDirs(root: string): Promise<string[]> {
  try {
    return (await readdir(root)).filter(isRunId)
  } catch {
    return []
  }
}

/** The newest run directory (by name: run IDs sort by start time) not in `before`; null when none appeared. */
export async function newRunDir(root: string, before: ReadonlySet<string>): Promise<string | null> {
  const fresh = (await listRunDirs(root)).filter((id) => !before.has(id)).sort()
  for (const id of fresh.reverse()) {
    const info = await stat(join(root, id)).catch(() => null)
    if (info?.isDirectory()) return join(root, id)
  }
  return null
}
