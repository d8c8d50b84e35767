// The rendered sbatch script: its directives, and what it does when run. The body is executed for real by bash, with
// a stand-in for node that records its arguments and environment, so quoting, exports, the per-task variables, the
// probe check and the exit files are proven on the script itself, not on a reading of its text.
import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { type Campaign, campaignPaths, runDirOf } from '../../src/cluster/campaign.ts'
import { renderSbatchScript, submitCommands } from '../../src/cluster/sbatch-script.ts'
import { TASK_REFUSED_EXIT } from '../../src/cluster/task-script.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { campaignArb, envMap, sampleCampaign } from './support/campaigns.ts'

const directives = (script: string) =>
  script
    .split('\n')
    .filter((line) => line.startsWith('#SBATCH '))
    .map((line) => line.slice('#SBATCH '.length))

describe('directives', () => {
  test('one partition: the whole array in the script, so `sbatch job.sh` alone submits it', () => {
    const c = sampleCampaign({
      partitions: ['gpu'],
      gpusPerNode: 8,
      cpusPerTask: 32,
      timeLimitMin: 90,
      account: 'proj1',
      qos: 'high',
      exclusive: true,
    })
    expect(directives(renderSbatchScript(c))).toEqual([
      `--job-name=vnpb-${c.runId}`,
      `--comment=virnucpro-bench:${c.runId}`,
      '--nodes=1',
      '--ntasks=1',
      '--cpus-per-task=32',
      '--gres=gpu:8',
      '--time=90',
      '--account=proj1',
      '--qos=high',
      '--exclusive',
      `--output=${campaignPaths(runDirOf(c)).logs}/task-%a.out`,
      '--open-mode=append',
      '--export=ALL',
      '--array=0-1',
      '--partition=gpu',
    ])
  })

  test('no GPUs asked for, no account: no --gres, --account or --qos at all', () => {
    const d = directives(renderSbatchScript(sampleCampaign()))
    expect(d.filter((line) => /^--(gres|account|qos|exclusive|partition|cpus-per-task)/.test(line))).toEqual([])
  })

  test('several partitions: one submission each, task indices global and disjoint', () => {
    const c = sampleCampaign({ partitions: ['a', 'b', 'c'], nodesPerPartition: 2 })
    expect(directives(renderSbatchScript(c)).some((line) => line.startsWith('--array'))).toBe(false)
    expect(submitCommands(c, '/x/job.sh')).toEqual([
      'sbatch --parsable --array=0-1 --partition=a /x/job.sh',
      'sbatch --parsable --array=2-3 --partition=b /x/job.sh',
      'sbatch --parsable --array=4-5 --partition=c /x/job.sh',
    ])
    expect(renderSbatchScript(c)).toContain('task_count=6')
  })
})

test('every script rendered from any campaign is valid bash (bash -n)', () => {
  fc.assert(
    fc.property(campaignArb, (c) => {
      const check = spawnSync('bash', ['-n'], { input: renderSbatchScript(c), encoding: 'utf8' })
      expect(check.stderr).toBe('')
      expect(check.status).toBe(0)
    }),
    { numRuns: 40 },
  )
})

/** A checkout, results root and stand-in node in a temp directory, for running the script's body. */
function taskBench() {
  const dir = tempDirUntilFileEnd('sbatch-script-')
  const repoDir = join(dir, 'repo')
  mkdirSync(repoDir)
  writeFileSync(join(repoDir, 'package.json'), '{}\n')
  const nodeExe = join(dir, 'node')
  // Records what it was started with, then exits as STUB_EXIT says (vitest's exit status, for the script).
  writeFileSync(
    nodeExe,
    `#!/bin/bash\nprintf '%s\\0' "$@" >"${dir}/args"\nenv -0 >"${dir}/env"\nexit "\${STUB_EXIT:-0}"\n`,
  )
  chmodSync(nodeExe, 0o755)
  return { dir, repoDir, nodeExe, resultsRoot: join(dir, 'results') }
}

type Bench = ReturnType<typeof taskBench>

/** Writes what `slurm submit` writes before sbatch, then runs the script as array task `index`. */
function runTask(c: Campaign, bench: Bench, index: number, extraEnv: Record<string, string> = {}, probe = true) {
  const paths = campaignPaths(runDirOf(c))
  rmSync(runDirOf(c), { recursive: true, force: true })
  rmSync(join(bench.dir, 'env'), { force: true })
  mkdirSync(paths.logs, { recursive: true })
  if (probe) writeFileSync(paths.probe, `${c.probeToken}\n`)
  const script = join(bench.dir, 'job.sh')
  writeFileSync(script, renderSbatchScript(c))
  const env = { PATH: process.env.PATH, SLURM_ARRAY_TASK_ID: `${index}`, SLURM_ARRAY_JOB_ID: '41', ...extraEnv }
  return spawnSync('bash', [script], { env, encoding: 'utf8' })
}

function childEnv(bench: Bench): Map<string, string> {
  const entries = readFileSync(join(bench.dir, 'env'), 'utf8').split('\0').slice(0, -1)
  return new Map(entries.map((e) => [e.slice(0, e.indexOf('=')), e.slice(e.indexOf('=') + 1)]))
}

const shortHost = () =>
  execFileSync('hostname', ['-s'], { encoding: 'utf8' })
    .trim()
    .replace(/[^A-Za-z0-9._-]/g, '')

describe('the task, run', () => {
  const bench = taskBench()
  const base = sampleCampaign({ resultsRoot: bench.resultsRoot, repoDir: bench.repoDir, nodeExe: bench.nodeExe })

  test("vitest starts in the checkout with the campaign's variables, per-task ones, and the task's name", () => {
    fc.assert(
      fc.property(envMap, fc.array(envMap, { minLength: 2, maxLength: 2 }), fc.nat({ max: 1 }), (env, taskEnv, i) => {
        const c = { ...base, env, taskEnv }
        const ran = runTask(c, bench, i, { VITEST_SUMMARY_FILE: '/tmp/the-submitters-file' })
        expect(ran.stderr).toBe('')
        expect(ran.status).toBe(0)
        const seen = childEnv(bench)
        for (const [name, value] of Object.entries({ ...env, ...taskEnv[i] })) expect(seen.get(name), name).toBe(value)
        expect(seen.get('VIRNUCPRO_BENCH_RUN_ID')).toBe(c.runId)
        expect(seen.get('VIRNUCPRO_BENCH_RESULTS_DIR')).toBe(c.resultsRoot)
        expect(seen.get('VIRNUCPRO_BENCH_TASK')).toBe(`${shortHost()}-t${i}`)
        expect(seen.has('VITEST_SUMMARY_FILE')).toBe(false)
        expect(seen.get('PWD')).toBe(bench.repoDir)
        const args = readFileSync(join(bench.dir, 'args'), 'utf8').split('\0').slice(0, -1)
        expect(args).toEqual(['node_modules/vitest/vitest.mjs', 'run', '--project', 'gpu', ...c.suiteFiles])
      }),
      { numRuns: 15 },
    )
  })

  test('checks in, then records vitest exit status, which is the task exit status', () => {
    const ran = runTask(base, bench, 1, { STUB_EXIT: '1' })
    expect(ran.status).toBe(1)
    const tasks = campaignPaths(runDirOf(base)).tasks
    const started = JSON.parse(readFileSync(join(tasks, '1.started.json'), 'utf8'))
    expect(started).toMatchObject({ task: 1, host: shortHost(), jobId: '41_1' })
    expect(JSON.parse(readFileSync(join(tasks, '1.done.json'), 'utf8'))).toMatchObject({ task: 1, exitCode: 1 })
  })

  test('a results directory without the submit side probe: one line naming it, exit 3, nothing run', () => {
    const ran = runTask(base, bench, 0, {}, false)
    expect(ran.status).toBe(TASK_REFUSED_EXIT)
    const lines = ran.stderr.trim().split('\n')
    expect(lines).toHaveLength(1)
    expect(lines[0]).toBe(
      `virnucpro-bench task 0 of 2 on ${shortHost()}: results directory ${runDirOf(base)} is not shared with this node (the probe file the submit host wrote there is missing): put VIRNUCPRO_BENCH_RESULTS_DIR on a filesystem every node mounts`,
    )
    expect(existsSync(join(bench.dir, 'env'))).toBe(false)
    expect(existsSync(campaignPaths(runDirOf(base)).tasks)).toBe(false)
  })

  test('a node without the checkout or without node: one line each, exit 3', () => {
    const noRepo = runTask({ ...base, repoDir: join(bench.dir, 'elsewhere') }, bench, 0)
    expect(noRepo.status).toBe(TASK_REFUSED_EXIT)
    expect(noRepo.stderr).toMatch(
      /: the virnucpro-bench checkout .*elsewhere is not on this node: clone it on a shared filesystem\n$/,
    )
    const noNode = runTask({ ...base, nodeExe: join(os.tmpdir(), 'no-such-node') }, bench, 0)
    expect(noNode.status).toBe(TASK_REFUSED_EXIT)
    expect(noNode.stderr).toMatch(
      /: no node at .*no-such-node on this node: give slurm submit --node-exe a path every node has\n$/,
    )
  })

  test('run outside an array (no SLURM_ARRAY_TASK_ID): bash stops at once saying how to submit it', () => {
    const script = join(bench.dir, 'job.sh')
    writeFileSync(script, renderSbatchScript(base))
    const ran = spawnSync('bash', [script], { env: { PATH: process.env.PATH }, encoding: 'utf8' })
    expect(ran.status).not.toBe(0)
    expect(ran.stderr).toContain('submit it as a job array (sbatch --array)')
  })
})
