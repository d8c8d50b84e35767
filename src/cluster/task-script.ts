/**
 * The body every task of a campaign runs, whatever launched it (a Slurm array task, a Kubernetes indexed pod): check
 * that the results directory is the submit side's, check in, export the campaign's environment, run the suites with
 * vitest, record the exit status. Pure: campaign in, bash lines out.
 */
import { type Campaign, campaignPaths, runDirOf, taskCount } from './campaign.ts'
import { exportLines, shellQuote, shellWord } from './shell.ts'

/** Where a launcher puts the task's index, and what names its job (for the check-in file). */
export interface TaskLauncher {
  /** `SLURM_ARRAY_TASK_ID`, `JOB_COMPLETION_INDEX`. */
  indexVar: string
  /** A bash expression for the scheduler's job id of this task. */
  jobIdExpr: string
  /** What the index variable's absence means, for the one line printed then. */
  indexHint: string
  /**
   * Whether the task checks the submit side's probe file: yes under Slurm, where a node-local directory of the same
   * name is the common mistake; no in a Kubernetes pod, whose results volume is the one claim every pod mounts.
   */
  checkProbe: boolean
}

export const SLURM_TASK: TaskLauncher = {
  indexVar: 'SLURM_ARRAY_TASK_ID',
  jobIdExpr: `\${SLURM_ARRAY_JOB_ID:-\${SLURM_JOB_ID:-}}_\${SLURM_ARRAY_TASK_ID}`,
  indexHint: 'submit it as a job array (sbatch --array)',
  checkProbe: true,
}

export const K8S_TASK: TaskLauncher = {
  indexVar: 'JOB_COMPLETION_INDEX',
  jobIdExpr: `\${HOSTNAME:-}`,
  indexHint: 'run it as a Kubernetes Indexed Job',
  checkProbe: false,
}

/** Exit status of a task that refused to start (not shared, checkout missing): apart from vitest's 1 for failed tests. */
export const TASK_REFUSED_EXIT = 3

/** The vitest command line, relative to the checkout. */
export function vitestArgs(c: Campaign): string[] {
  return ['node_modules/vitest/vitest.mjs', 'run', '--project', 'gpu', ...c.suiteFiles]
}

function taskEnvCase(c: Campaign): string[] {
  const entries = c.taskEnv.map((env, i) => [i, exportLines(env)] as const).filter(([, lines]) => lines.length > 0)
  if (entries.length === 0) return []
  return [
    '# Per-task variables (e.g. which shard of the input this task reads).',
    'case $task_index in',
    ...entries.map(([i, lines]) => `  ${i}) ${lines.join('; ')} ;;`),
    'esac',
  ]
}

/** The task's bash lines (no shebang, no scheduler directives). */
export function renderTaskBody(c: Campaign, launcher: TaskLauncher): string[] {
  const paths = campaignPaths(runDirOf(c))
  const campaignEnv = { ...c.env, VIRNUCPRO_BENCH_RUN_ID: c.runId, VIRNUCPRO_BENCH_RESULTS_DIR: c.resultsRoot }
  const refuse = (why: string) => [`  say ${why}`, `  exit ${TASK_REFUSED_EXIT}`]
  return [
    'set -uo pipefail',
    `task_index=\${${launcher.indexVar}:?not set: ${launcher.indexHint}}`,
    `task_count=${taskCount(c)}`,
    `run_dir=${shellQuote(runDirOf(c))}`,
    `campaign_dir=${shellQuote(paths.dir)}`,
    `repo_dir=${shellQuote(c.repoDir)}`,
    `node_exe=${shellQuote(c.nodeExe)}`,
    "host=$(hostname -s | tr -cd 'A-Za-z0-9._-')",
    'task="$host-t$task_index"',
    'say() { printf \'virnucpro-bench task %s of %s on %s: %s\\n\' "$task_index" "$task_count" "$host" "$*" >&2; }',
    '',
    ...(launcher.checkProbe
      ? [
          '# The results directory must be the very one the submit host wrote its probe into: a node-local directory of',
          '# the same name would scatter the records over the nodes and the merged report would silently miss them.',
          `if [ "$(cat "$campaign_dir/probe" 2>/dev/null)" != ${shellQuote(c.probeToken)} ]; then`,
          ...refuse(
            '"results directory $run_dir is not shared with this node (the probe file the submit host wrote there is missing): put VIRNUCPRO_BENCH_RESULTS_DIR on a filesystem every node mounts"',
          ),
          'fi',
        ]
      : []),
    'if [ ! -f "$repo_dir/package.json" ]; then',
    ...refuse('"the virnucpro-bench checkout $repo_dir is not on this node: clone it on a shared filesystem"'),
    'fi',
    'if ! command -v "$node_exe" >/dev/null; then',
    ...refuse('"no node at $node_exe on this node: give slurm submit --node-exe a path every node has"'),
    'fi',
    'mkdir -p "$campaign_dir/tasks"',
    `printf '{"task":%s,"host":"%s","jobId":"%s","startedAt":"%s"}\\n' "$task_index" "$host" "${launcher.jobIdExpr}" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$campaign_dir/tasks/$task_index.started.json"`,
    '',
    ...exportLines(campaignEnv),
    '# Record ids end in the task, and its scratch and run cache are its own (src/engine/settings.ts campaignTask).',
    'export VIRNUCPRO_BENCH_TASK="$task"',
    'export VIRNUCPRO_BENCH_REPORTS_DIR="$campaign_dir/reports/$task"',
    ...taskEnvCase(c),
    "# The submitter's own summary files are not this task's to append to.",
    'unset VITEST_SUMMARY_FILE GITHUB_STEP_SUMMARY',
    'export PATH="$(dirname "$(command -v "$node_exe")"):$PATH"',
    '',
    `cd "$repo_dir" && "$node_exe" ${vitestArgs(c).map(shellWord).join(' ')}`,
    'status=$?',
    `printf '{"task":%s,"host":"%s","exitCode":%s,"endedAt":"%s"}\\n' "$task_index" "$host" "$status" "$(date -u +%Y-%m-%dT%H:%M:%SZ)" >"$campaign_dir/tasks/$task_index.done.json"`,
    'exit $status',
  ]
}
