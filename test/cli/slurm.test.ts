// `virnucpro-bench slurm` without a cluster: the dry runs print what would be submitted (and write nothing), bad
// arguments are one usage line each, and a machine without Slurm's commands gets one line saying so, not a stack.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { parse } from 'yaml'
import { run } from '../../src/cli/slurm.ts'
import { UsageError } from '../../src/cli/usage-error.ts'
import { captured } from '../cluster/support/capture.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('slurm-cli-')
const env = { PATH: process.env.PATH, VIRNUCPRO_BENCH_RUNS: '5', UNRELATED: 'x' }
const RUN_ID = '2026-11-25T09-00-00Z-ab12'

describe('submit --dry-run', () => {
  test('prints the sbatch script: valid bash, the run ID, the chosen suites and settings; writes nothing', async () => {
    const args = ['submit', '--dry-run', '--nodes', '2', '--device', 'cpu', '--suites', 'stage-throughput,scaling']
    const out = await captured(() => run([...args, '--results-dir', root, '--run-id', RUN_ID], env))
    expect(out.code).toBe(0)
    expect(out.stderr).toBe('')
    expect(spawnSync('bash', ['-n'], { input: out.stdout }).status).toBe(0)
    expect(out.stdout).toContain(`#SBATCH --job-name=vnpb-${RUN_ID}\n`)
    expect(out.stdout).toContain('#SBATCH --array=0-1\n')
    expect(out.stdout).toContain(
      'node_modules/vitest/vitest.mjs run --project gpu benchmarks/stage-throughput.gpu.test.ts benchmarks/scaling.gpu.test.ts\n',
    )
    for (const line of [
      "export VIRNUCPRO_BENCH_DEVICE='cpu'",
      "export VIRNUCPRO_BENCH_RUNS='5'",
      `export VIRNUCPRO_BENCH_RESULTS_DIR='${root}'`,
    ])
      expect(out.stdout).toContain(`${line}\n`)
    expect(out.stdout).not.toContain('UNRELATED')
    expect(readdirSync(root)).toEqual([])
  })

  test('--k8s prints an Indexed Job that parses, a pod per task, the results root from a claim', async () => {
    const args = ['submit', '--dry-run', '--k8s', '--nodes', '3', '--gpus-per-node', '8', '--image', 'reg/vnpb:1']
    const out = await captured(() => run([...args, '--run-id', RUN_ID], env))
    expect(out.code).toBe(0)
    const job = parse(out.stdout)
    expect(job.spec).toMatchObject({ completionMode: 'Indexed', completions: 3, parallelism: 3 })
    const pod = job.spec.template.spec
    expect(pod.containers[0]).toMatchObject({ image: 'reg/vnpb:1', workingDir: '/opt/virnucpro-bench' })
    expect(pod.containers[0].resources.limits).toEqual({ 'nvidia.com/gpu': 8 })
    expect(pod.containers[0].volumeMounts).toEqual([{ name: 'results', mountPath: '/results' }])
    expect(pod.volumes[0].persistentVolumeClaim.claimName).toBe('virnucpro-bench-results')
  })
})

describe('submit --shard-input: a sharded production run', () => {
  const input = join(import.meta.dirname, '../fixtures/results/2026-03-02T09-30-00Z-de30/scaling-reference.json')

  test('every task runs the shard suite on its shard of one input; --one-node adds the whole input as the last task', async () => {
    const args = ['submit', '--dry-run', '--nodes', '4', '--shard-input', input, '--one-node']
    const out = await captured(() => run([...args, '--results-dir', root, '--run-id', RUN_ID], env))
    expect(out.code, out.stderr).toBe(0)
    expect(spawnSync('bash', ['-n'], { input: out.stdout }).status).toBe(0)
    expect(out.stdout).toContain('#SBATCH --array=0-3\n')
    expect(out.stdout).toContain(`export VIRNUCPRO_BENCH_INPUT='${input}'\n`)
    expect(out.stdout).toContain('run --project gpu benchmarks/shard.gpu.test.ts\n')
    const shards = [...out.stdout.matchAll(/^ {2}(\d+)\) export VIRNUCPRO_BENCH_SHARD='([^']+)' ;;$/gm)].map((m) => [
      Number(m[1]),
      m[2],
    ])
    expect(shards).toEqual([
      [0, '0/3'],
      [1, '1/3'],
      [2, '2/3'],
      [3, '0/1'],
    ])
    const plain = await captured(() =>
      run(['submit', '--dry-run', '--nodes', '2', '--shard-input', input, '--run-id', RUN_ID], env),
    )
    expect(plain.stdout).toContain("  1) export VIRNUCPRO_BENCH_SHARD='1/2' ;;\n")
    expect(plain.stdout).not.toContain("'0/1'")
  })

  test.for([
    [['--one-node'], 'slurm submit: --one-node belongs to --shard-input'],
    [
      ['--shard-input', 'INPUT', '--suites', 'scaling'],
      'slurm submit: --shard-input runs the shard suite; drop --suites',
    ],
    [
      ['--shard-input', 'INPUT', '--one-node'],
      'slurm submit: --one-node needs at least 3 tasks (2 or more shards and the one-node task), got 1',
    ],
    [
      ['--shard-input', 'INPUT', '--nodes', '2', '--one-node'],
      'slurm submit: --one-node needs at least 3 tasks (2 or more shards and the one-node task), got 2',
    ],
    [['--shard-input', '/no/such.fa'], /^slurm submit: --shard-input '\/no\/such\.fa' is not a file/],
  ] as const)('refused: %j', async ([args, message]) => {
    const error = await run(['submit', '--dry-run', ...args.map((a) => (a === 'INPUT' ? input : a))], env).catch(
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(UsageError)
    if (typeof message === 'string') expect((error as Error).message).toBe(message)
    else expect((error as Error).message).toMatch(message)
  })
})

describe('bad arguments: one usage line each', () => {
  test.for([
    [
      ['--partition', 'a', '--partition', 'b'],
      'slurm submit: --partition given twice; give a list once, comma-separated',
    ],
    [['--suites', 'scalign'], /^slurm submit: unknown suite 'scalign' \(suites: .*\bscaling\b/],
    [['--k8s'], 'slurm submit: --k8s renders a manifest; give it with --dry-run (then: kubectl apply -f FILE)'],
    [['--image', 'x'], 'slurm submit: --image and --claim belong to --k8s'],
    [
      ['--dry-run', '--k8s', '--partition', 'gpu'],
      "slurm submit: --partition, --account and --qos are Slurm's; a Kubernetes Job has none",
    ],
    [['--device', 'tpu'], "slurm submit: --device must be gpu or cpu, got 'tpu'"],
    [['--nodes', '0'], "slurm submit: --nodes must be an integer >= 1, got '0'"],
    [['--export', 'NOT_SET_ANYWHERE'], 'slurm submit: --export: NOT_SET_ANYWHERE is not set in this environment'],
    [
      ['--dry-run', '--partition', 'gpu;rm'],
      "slurm submit: partition 'gpu;rm' may hold only letters, digits, '.', '_' and '-'",
    ],
    [
      ['--dry-run', '--results-dir', '/my results'],
      /^slurm submit: results directory '\/my results' must be absolute, without whitespace/,
    ],
    [['--nodes', '-1'], "slurm submit: --nodes must be an integer >= 1, got '-1'"],
    [
      ['--dry-run', '--nodes', '100000'],
      "slurm submit: 100000 tasks (--nodes x partitions) need array indices 0-99999, above MaxArraySize 1001, Slurm's default (scontrol did not answer): give at most 1001 tasks, or ask the cluster's admins to raise MaxArraySize",
    ],
    [
      ['--dry-run', '--partition', 'a,b', '--nodes', '501'],
      /^slurm submit: 1002 tasks .* need array indices 0-1001, above MaxArraySize 1001/,
    ],
    [
      ['--dry-run', '--gpus-per-node', '99'],
      /^slurm submit: --gpus-per-node 99: no node is built with more than 16 GPUs .*: give the GPUs one node has$/,
    ],
    [
      ['--dry-run', '--k8s', '--nodes', '100001'],
      'slurm submit: 100001 tasks: an Indexed Job holds at most 100000 completions: give fewer --nodes',
    ],
    [
      ['--dry-run', '--node-exe', '/nonexistent/node'],
      /^slurm submit: --node-exe '\/nonexistent\/node' is not an executable file here \(ENOENT\): give a path every node has \(this one: .*\), or a command on the nodes' PATH such as node$/,
    ],
  ] as const)('submit %j', async ([args, message]) => {
    const error = await run(['submit', ...args], env).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(UsageError)
    if (typeof message === 'string') expect((error as Error).message).toBe(message)
    else expect((error as Error).message).toMatch(message)
  })

  test('status and cancel need exactly one RUN_ID', async () => {
    await expect(run(['status'], env)).rejects.toThrow('slurm status: expected one RUN_ID, got 0')
    await expect(run(['cancel', 'a', 'b'], env)).rejects.toThrow('slurm cancel: expected one RUN_ID, got 2')
  })
})

describe('a machine without Slurm', () => {
  const noSlurm = { ...env, PATH: '/nonexistent' }
  const missing = (command: string, tool: string) =>
    `slurm ${command}: ${tool} not found on PATH: run this on a Slurm login node, or add Slurm's client commands to PATH`

  test('submit: one usage line (exit 2) saying sbatch is not on PATH, nothing written', async () => {
    const submit = run(['submit', '--results-dir', root, '--run-id', RUN_ID], noSlurm)
    await expect(submit).rejects.toThrow(new UsageError(missing('submit', 'sbatch')))
    expect(existsSync(join(root, RUN_ID))).toBe(false)
  })

  test('status and cancel: one line saying squeue is not on PATH', async () => {
    await expect(run(['status', RUN_ID, '--results-dir', root], noSlurm)).rejects.toThrow(
      new UsageError(missing('status', 'squeue')),
    )
    await expect(run(['cancel', RUN_ID], noSlurm)).rejects.toThrow(new UsageError(missing('cancel', 'squeue')))
  })
})
