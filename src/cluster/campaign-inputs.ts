/**
 * What a campaign takes from the submit side: the suites by name (the `*.gpu.test.ts` files under the checkout's
 * benchmarks/) and the environment its tasks export. A name that is not there is refused with the names that are.
 */
import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { ClusterError } from './errors.ts'
import { isExportableName } from './shell.ts'

const SUITE_SUFFIX = '.gpu.test.ts'

function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    return entry.isDirectory() ? filesUnder(path) : [path]
  })
}

/** Every gpu suite of the checkout by name: `scaling`, `validation/single-gpu/starvation-memory`, sorted. */
export function gpuSuiteNames(repoDir: string): string[] {
  const root = join(repoDir, 'benchmarks')
  return filesUnder(root)
    .filter((file) => file.endsWith(SUITE_SUFFIX))
    .map((file) => relative(root, file).slice(0, -SUITE_SUFFIX.length))
    .sort()
}

/**
 * The test files of the named suites, relative to the checkout; every suite for an empty list.
 * @throws ClusterError CLUSTER_BAD_CAMPAIGN naming the unknown suite and listing the known ones.
 */
export function suiteFiles(names: readonly string[], repoDir: string): string[] {
  if (names.length === 0) return []
  const known = gpuSuiteNames(repoDir)
  const unknown = names.find((name) => !known.includes(name))
  if (unknown !== undefined)
    throw new ClusterError('CLUSTER_BAD_CAMPAIGN', `unknown suite '${unknown}' (suites: ${known.join(', ')})`)
  return names.map((name) => `benchmarks/${name}${SUITE_SUFFIX}`)
}

/**
 * Set per campaign or per task by the job script itself: never carried from the submit side (a shard set there would
 * give every task the same one).
 */
const CAMPAIGN_OWNED = new Set([
  'VIRNUCPRO_BENCH_RUN_ID',
  'VIRNUCPRO_BENCH_RESULTS_DIR',
  'VIRNUCPRO_BENCH_TASK',
  'VIRNUCPRO_BENCH_REPORTS_DIR',
  'VIRNUCPRO_BENCH_SHARD',
])

/** The suite's own variables (sizing, target, thresholds: README "Where results land") travel by default. */
const CARRIED = /^(?:VIRNUCPRO_|REFPIPE_)/

/**
 * The variables every task exports: the suite's own from `env`, the `extra` names from `env`, and `set` over them.
 * @throws ClusterError CLUSTER_BAD_CAMPAIGN for an extra name that is no variable name or is not set in `env`.
 */
export function campaignEnv(
  env: NodeJS.ProcessEnv,
  extra: readonly string[],
  set: Readonly<Record<string, string>>,
): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(env))
    if (CARRIED.test(name) && !CAMPAIGN_OWNED.has(name) && value !== undefined) out[name] = value
  for (const name of extra) {
    if (!isExportableName(name))
      throw new ClusterError(
        'CLUSTER_BAD_CAMPAIGN',
        `--export: '${name}' cannot be exported (not a name, or bash's own)`,
      )
    const value = env[name]
    if (value === undefined)
      throw new ClusterError('CLUSTER_BAD_CAMPAIGN', `--export: ${name} is not set in this environment`)
    out[name] = value
  }
  return { ...out, ...set }
}
