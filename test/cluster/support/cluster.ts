// The Slurm cluster the cluster tests submit to: whichever `sinfo` answers here (SLURM_CONF, or the machine's own
// configuration). .ci/slurm-up.sh starts a single-node one; without any, these tests skip with the reason below (fail
// where VIRNUCPRO_BENCH_REQUIRE_TOOLS names slurm, as .ci/run does as root: test/support/optional-tools.ts).
import { execa } from 'execa'
import { type CampaignStatus, campaignStatus } from '../../../src/cluster/status.ts'

/** Null when a cluster answers, else what is missing: the one problem every cluster test is skipped with. */
export async function clusterUnavailable(): Promise<string | null> {
  const sinfo = await execa('sinfo', ['--noheader', '--format=%R'], { reject: false, timeout: 15_000 })
  if (sinfo.exitCode === 0 && sinfo.stdout.trim() !== '') return null
  const said = sinfo.code === 'ENOENT' ? 'sinfo is not on PATH' : sinfo.stderr.trim().split('\n')[0] || 'no partition'
  return `no Slurm cluster answers here (${said})`
}

/**
 * The submit side's environment for a job: this process's without the test runner's own variables (a task's vitest
 * must not believe it is a worker of this one), nor any suite setting this test did not choose.
 */
export function jobEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const own = /^(?:VITEST|VIRNUCPRO_|REFPIPE_|FAKE_NVML_)|^(?:TEST|NODE_ENV)$/
  const kept = Object.entries(process.env).filter(([name]) => !own.test(name))
  return { ...Object.fromEntries(kept), ...extra }
}

/**
 * Polls the campaign until every task has ended.
 * @throws Error with the last status (and where the task logs are) when `timeoutMs` passes first.
 */
export async function waitFinished(
  runId: string,
  runDir: string,
  env: NodeJS.ProcessEnv,
  timeoutMs: number,
): Promise<CampaignStatus> {
  const deadline = Date.now() + timeoutMs
  for (;;) {
    const status = await campaignStatus(runId, runDir, { env })
    if (status.finished) return status
    if (Date.now() > deadline)
      throw new Error(`run ${runId} not finished after ${timeoutMs / 1000} s: ${JSON.stringify(status.tasks)}`)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
  }
}
