// Against a real Slurm cluster (.ci/slurm-up.sh starts a single-node one in CI): a 2-task campaign runs the reference
// pipeline on the CPU with scripted fake GPUs, both tasks' records land in one run directory under distinct names, and
// `report` reads it; refusals (a job Slurm rejects, an unknown partition, a results directory a task cannot see) each
// come back as one line. Without a cluster every test here is skipped with one reason.
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync, rmSync, symlinkSync } from 'node:fs'
import os from 'node:os'
import { dirname, join } from 'node:path'
import { execa } from 'execa'
import { afterAll, beforeEach, describe, expect, test } from 'vitest'
import { cachedDataset } from '../../benchmarks/support/dataset.ts'
import { parseSubmit, run } from '../../src/cli/slurm.ts'
import { UsageError } from '../../src/cli/usage-error.ts'
import { campaignPaths, jobName, runDirOf, submissions } from '../../src/cluster/campaign.ts'
import { prepareCampaignDir, writeManifest } from '../../src/cluster/campaign-files.ts'
import { queueRows, runTool, submitScript } from '../../src/cluster/commands.ts'
import { renderSbatchScript, submissionArgs } from '../../src/cluster/sbatch-script.ts'
import { campaignStatus, cancelCampaign } from '../../src/cluster/status.ts'
import { referenceProfile } from '../../src/pipeline/profiles.ts'
import { makeRunId } from '../../src/results/run-id.ts'
import { readResultRecords } from '../../src/results/store.ts'
import { createFakeNvml } from '../support/fake-nvml.ts'
import { skipWithout } from '../support/optional-tools.ts'
import { atFileEnd, tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { captured } from './support/capture.ts'
import { clusterUnavailable, jobEnv, waitFinished } from './support/cluster.ts'

const unavailable = await clusterUnavailable()
const pipeline = await referenceProfile.preflight(process.env, 0)
const host = os
  .hostname()
  .split('.')[0]!
  .replace(/[^A-Za-z0-9._-]/g, '')

beforeEach((context) => skipWithout(context, 'slurm', unavailable))

const whichSync = (tool: string) => execFileSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).trim()

// Every run this file submits is cancelled when it ends, whatever happened: no task outlives the test.
const submitted: { runId: string; env: NodeJS.ProcessEnv }[] = []
afterAll(async () => {
  for (const { runId, env } of submitted) await cancelCampaign(runId, { env }).catch(() => {})
})

/** `slurm submit ARGS --results-dir ROOT --run-id ID`, remembered for the cancel at the end. */
async function submit(root: string, args: string[], env: NodeJS.ProcessEnv) {
  const runId = makeRunId()
  submitted.push({ runId, env })
  const result = await captured(() => run(['submit', ...args, '--results-dir', root, '--run-id', runId], env))
  return { runId, runDir: join(root, runId), ...result }
}

// The suites at their smallest: 10 records, tiny models, one measured run, fake GPUs at 95% (PERF-02 passes).
const TINY = {
  VIRNUCPRO_BENCH_TARGET: 'reference',
  VIRNUCPRO_BENCH_MODEL_SCALE: 'tiny',
  VIRNUCPRO_BENCH_PRESET: 'TINY',
  VIRNUCPRO_BENCH_RECORDS: '10',
  VIRNUCPRO_BENCH_RUNS: '1',
  VIRNUCPRO_BENCH_WARMUP: '0',
  VIRNUCPRO_BENCH_MONITOR_INTERVAL_MS: '50',
  NO_COLOR: '1',
}
const GIB = 2 ** 30

/** One scripted GPU at 95% (PERF-02 passes), removed when the file ends. */
function fakeH200() {
  const fake = createFakeNvml({
    devices: [
      {
        name: 'NVIDIA H200 (fake)',
        memTotalBytes: 80 * GIB,
        memUsedBytes: 2 * GIB,
        utilGpuPct: 95,
        powerMw: 300_000,
        energyMj: 1_000,
        energyFromPower: true,
      },
    ],
  })
  atFileEnd(() => fake.remove())
  return fake
}

describe('a 2-task campaign on the cluster', () => {
  test('both tasks run the stage suite on the CPU; one run directory, two records named by task, host in provenance, report reads it', async (context) => {
    skipWithout(context, 'torch', pipeline.state === 'ready' ? null : pipeline.reason)
    const fake = fakeH200()
    const env = jobEnv({ ...TINY, ...fake.env })
    const root = tempDirUntilFileEnd('slurm-campaign-')
    const startedMs = Date.now()
    const args = [
      '--nodes',
      '2',
      '--cpus-per-task',
      '1',
      '--device',
      'cpu',
      '--suites',
      'stage-throughput',
      '--time-limit-min',
      '10',
    ]
    const sub = await submit(root, [...args, '--export', 'FAKE_NVML_SCRIPT,FAKE_NVML_STATS'], env)
    expect(sub.code, sub.stderr).toBe(0)
    expect(sub.stdout).toMatch(
      new RegExp(
        `^run ${sub.runId}: submitted job \\d+ \\(default partition, tasks 0-1\\)\\n  records: ${sub.runDir}\\n`,
      ),
    )

    const status = await waitFinished(sub.runId, sub.runDir, env, 300_000)
    const logs = status.tasks.map((t) => readFileSync(t.log, 'utf8')).join('\n')
    expect(
      status.tasks.map((t) => [t.index, t.state, t.exitCode, t.host]),
      logs,
    ).toEqual([
      [0, 'COMPLETED', 0, host],
      [1, 'COMPLETED', 0, host],
    ])
    console.info(
      `2-task array on the cluster: submitted and finished in ${((Date.now() - startedMs) / 1000).toFixed(1)} s`,
    )

    const { records, invalid } = await readResultRecords(sub.runDir)
    expect(invalid).toEqual([])
    expect(records.map((r) => r.id).sort()).toEqual([
      `stage-1-GPU-v2.0-cpu.${host}-t0`,
      `stage-1-GPU-v2.0-cpu.${host}-t1`,
    ])
    for (const record of records) {
      expect(record.state, record.reason ?? '').toBe('completed')
      expect(record.provenance.runId).toBe(sub.runId)
      expect(record.provenance.host.hostname).toBe(os.hostname())
      expect(record.runs.map((r) => r.config.device)).toEqual(['cpu'])
    }
    // Each task measured its own runs: scratch and run cache per task, never one task's runs in the other's record.
    expect(readdirSync(join(sub.runDir, 'work')).sort()).toEqual([`${host}-t0`, `${host}-t1`])
    for (const record of records) expect(record.runs[0]!.run.logPath).toContain(`/work/${record.id.split('.').at(-1)}/`)

    const out = tempDirUntilFileEnd('slurm-report-')
    const report = await execa(process.execPath, ['src/cli.ts', 'report', sub.runDir, '--out', out], {
      reject: false,
      env: jobEnv({}),
    })
    expect(report.exitCode, report.stderr).toBe(0)
    const summary = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8'))
    expect(JSON.stringify(summary)).toContain(`stage-1-GPU-v2.0-cpu.${host}-t0`)
    expect(JSON.stringify(summary)).toContain(`stage-1-GPU-v2.0-cpu.${host}-t1`)

    const lines = await captured(() => run(['status', sub.runId, '--results-dir', root], env))
    expect(lines.stdout).toContain(`run ${sub.runId}: 2 task(s), 2 record(s) in ${sub.runDir}`)
    expect(lines.stdout).toContain(`every task has ended: virnucpro-bench report ${sub.runDir}`)
  }, 360_000)
})

describe('a sharded production run on the cluster', () => {
  test('2 shards and the one-node task through --shard-input --one-node: 3 shard records, fleet time, straggler, 2 nodes vs 1 measured', async (context) => {
    skipWithout(context, 'torch', pipeline.state === 'ready' ? null : pipeline.reason)
    const fake = fakeH200()
    // 40 records: shards of 20, and a tenth of each for its size model; 2 runs a size, no warm-up.
    const input = (await cachedDataset({ preset: 'SMALL', overrides: { seed: 1, records: 40 } })).files[0]!
    const env = jobEnv({ ...TINY, ...fake.env, VIRNUCPRO_BENCH_RUNS: '2' })
    const root = tempDirUntilFileEnd('slurm-shards-')
    const args = ['--nodes', '3', '--cpus-per-task', '1', '--device', 'cpu', '--time-limit-min', '10']
    const startedMs = Date.now()
    const sub = await submit(
      root,
      [...args, '--shard-input', input, '--one-node', '--export', 'FAKE_NVML_SCRIPT,FAKE_NVML_STATS'],
      env,
    )
    expect(sub.code, sub.stderr).toBe(0)
    const status = await waitFinished(sub.runId, sub.runDir, env, 300_000)
    const logs = status.tasks.map((t) => readFileSync(t.log, 'utf8')).join('\n')
    expect(
      status.tasks.map((t) => [t.index, t.state, t.exitCode]),
      logs,
    ).toEqual([
      [0, 'COMPLETED', 0],
      [1, 'COMPLETED', 0],
      [2, 'COMPLETED', 0],
    ])
    console.info(`sharded run on the cluster (3 tasks): ${((Date.now() - startedMs) / 1000).toFixed(1)} s`)
    const { records, invalid } = await readResultRecords(sub.runDir)
    expect(invalid).toEqual([])
    expect(records.map((r) => [r.kind, r.state, (r.stats as { shard?: unknown }).shard])).toEqual(
      expect.arrayContaining([
        ['shard', 'completed', { index: 0, count: 2 }],
        ['shard', 'completed', { index: 1, count: 2 }],
        ['shard', 'completed', { index: 0, count: 1 }],
      ]),
    )

    const out = tempDirUntilFileEnd('slurm-shards-report-')
    const report = await execa(process.execPath, ['src/cli.ts', 'report', sub.runDir, '--out', out], {
      reject: false,
      env: jobEnv({}),
    })
    expect(report.exitCode, report.stderr).toBe(0)
    const [run] = JSON.parse(readFileSync(join(out, 'summary.json'), 'utf8')).fleet.shardRuns
    expect(run).toMatchObject({ runId: sub.runId, count: 2, missing: [], input: { records: 40 } })
    expect(run.fleet.wallMs.value).toBeGreaterThan(0)
    expect(run.fleet.sequences).toBe(40)
    expect(run.straggler.index === 0 || run.straggler.index === 1).toBe(true)
    expect(run.vsOneNode).toMatchObject({ state: 'judged', method: 'measured', nodes: 2 })
    expect(run.vsOneNode.speedup.ci.low).toBeLessThan(run.vsOneNode.speedup.value)
  }, 360_000)
})

describe('refusals, one line each, nothing left behind', () => {
  const root = tempDirUntilFileEnd('slurm-refused-')
  const env = jobEnv(TINY)

  test("a job Slurm rejects: sbatch's own message, a usage error (exit 2); no files, no job", async () => {
    // Without sinfo on PATH the GPUs are checked against what nodes are built with only, so sbatch sees gpu:1 and
    // refuses it on this cluster of no GPUs: the path of any request a cluster refuses.
    const bin = tempDirUntilFileEnd('slurm-no-sinfo-')
    for (const tool of ['sbatch', 'scontrol', 'squeue', 'scancel']) symlinkSync(whichSync(tool), join(bin, tool))
    const noSinfo = { ...env, PATH: `${bin}:${dirname(process.execPath)}` }
    const sub = submit(root, ['--gpus-per-node', '1', '--suites', 'stage-throughput'], noSinfo)
    await expect(sub).rejects.toThrow(UsageError)
    await expect(sub).rejects.toThrow(/^slurm submit: sbatch: error: [^\n]*gres[^\n]*$/i)
    expect(readdirSync(root)).toEqual([])
    expect(await queueRows(jobName(submitted.at(-1)!.runId), { env })).toEqual([])
  })

  test('more GPUs than any node of the partition has (sinfo): refused before sbatch, with the most there is', async () => {
    const sub = submit(root, ['--gpus-per-node', '1', '--suites', 'stage-throughput'], env)
    await expect(sub).rejects.toThrow(
      /^slurm submit: --gpus-per-node 1: no node of partition \S+ has that many GPUs \(sinfo: 0 at most\): give --gpus-per-node 0/,
    )
    expect(readdirSync(root)).toEqual([])
  })

  test("more tasks than this cluster's MaxArraySize (scontrol): refused, even as a dry run", async () => {
    const sub = submit(root, ['--nodes', '100000', '--dry-run'], env)
    await expect(sub).rejects.toThrow(
      /^slurm submit: 100000 tasks .* need array indices 0-99999, above MaxArraySize \d+, this cluster's \(scontrol show config\)/,
    )
  })

  test('an unknown partition: named, with the partitions sinfo lists; no files', async () => {
    const sub = submit(root, ['--partition', 'no-such-partition'], env)
    await expect(sub).rejects.toThrow(/^slurm submit: unknown partition 'no-such-partition' \(sinfo lists: \S.*\)$/)
    expect(readdirSync(root)).toEqual([])
  })
})

describe('a campaign held in the queue', () => {
  const root = tempDirUntilFileEnd('slurm-held-')
  const env = jobEnv(TINY)

  /** What `slurm submit` does, with the array held (sbatch --hold) so the test acts before it runs. */
  async function submitHeld() {
    const { campaign } = parseSubmit(['--nodes', '1', '--suites', 'stage-throughput', '--results-dir', root], env)
    submitted.push({ runId: campaign.runId, env })
    await prepareCampaignDir(campaign, renderSbatchScript(campaign))
    const [s] = submissions(campaign)
    const script = campaignPaths(runDirOf(campaign)).script
    const jobId = await submitScript(script, ['--hold', ...submissionArgs(s!)], { env })
    await writeManifest(campaign, [{ ...s!, jobId }])
    return { campaign, jobId, runDir: runDirOf(campaign) }
  }

  test('a results directory the task cannot see: it stops at once with one line, and status says so', async () => {
    const { campaign, jobId, runDir } = await submitHeld()
    rmSync(campaignPaths(runDir).probe)
    await runTool('scontrol', ['release', jobId], { env })
    // 300 s as every wait here: the requeue file's job may hold the node's CPUs first (both files run beside others).
    const status = await waitFinished(campaign.runId, runDir, env, 300_000)
    expect(status.tasks).toEqual([
      expect.objectContaining({
        index: 0,
        state: 'FAILED',
        exitCode: null,
        note: expect.stringMatching(
          /^ended without reaching the results directory \(not shared with its node\?\): see .*task-0\.out$/,
        ),
      }),
    ])
    const log = readFileSync(status.tasks[0]!.log, 'utf8').trim().split('\n')
    expect(log).toEqual([
      expect.stringMatching(
        new RegExp(`^virnucpro-bench task 0 of 1 on ${host}: results directory ${runDir} is not shared with this node`),
      ),
    ])
    expect((await readResultRecords(runDir)).records).toEqual([])
  }, 360_000)

  test('status shows it waiting; cancel ends it; a second cancel finds nothing to cancel', async () => {
    const { campaign, jobId, runDir } = await submitHeld()
    const waiting = await campaignStatus(campaign.runId, runDir, { env })
    expect(waiting.tasks).toEqual([
      expect.objectContaining({ state: 'PENDING', note: expect.stringMatching(/^waiting: JobHeld/) }),
    ])
    const cancelled = await captured(() => run(['cancel', campaign.runId], env))
    expect(cancelled).toEqual({ code: 0, stdout: `run ${campaign.runId}: cancelled job(s) ${jobId}\n`, stderr: '' })
    const after = await campaignStatus(campaign.runId, runDir, { env })
    expect(after.tasks.map((t) => t.state)).toEqual(['CANCELLED'])
    await expect(run(['cancel', campaign.runId], env)).rejects.toThrow(
      new UsageError(
        `slurm cancel: run ${campaign.runId} has no pending or running job (job name ${jobName(campaign.runId)}): nothing to cancel; 'slurm status ${campaign.runId}' shows how its tasks ended`,
      ),
    )
  })
})

describe('.ci/slurm-down.sh', () => {
  test('ends exactly the daemons of its own pid files: a second cluster stops, the first one still answers', async (context) => {
    if (process.getuid?.() !== 0) context.skip('starting a second cluster needs root (slurmd runs jobs as their users)')
    const dir = tempDirUntilFileEnd('slurm-second-')
    const env = { ...process.env, VIRNUCPRO_BENCH_SLURM_DIR: dir, VIRNUCPRO_BENCH_SLURM_PORT: '17917' }
    const up = await execa('bash', ['.ci/slurm-up.sh'], { env, reject: false })
    expect(up.exitCode, up.stderr).toBe(0)
    const pids = ['slurmctld.pid', 'slurmd.pid', 'munge/munged.pid'].map((f) =>
      Number(readFileSync(join(dir, f), 'utf8')),
    )
    const alive = (pid: number) => {
      try {
        process.kill(pid, 0)
        return true
      } catch {
        return false
      }
    }
    expect(pids.map(alive)).toEqual([true, true, true])
    const down = await execa('bash', ['.ci/slurm-down.sh'], { env, reject: false })
    expect(down.exitCode, down.stderr).toBe(0)
    expect(pids.map(alive)).toEqual([false, false, false])
    expect(execFileSync('sinfo', ['--noheader', '--format=%R'], { encoding: 'utf8' }).trim()).not.toBe('')
  }, 60_000)
})
