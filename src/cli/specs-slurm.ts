/**
 * What `virnucpro-bench slurm` accepts, as data (command-spec.ts), apart from specs.ts so that the cluster commands
 * can grow without touching the others'. Lists are comma-separated: a repeated option is refused, not merged.
 */
import type { CommandSpec } from './command-spec.ts'

const RESULTS_DIR = {
  type: 'string',
  value: 'DIR',
  description: 'results root every node mounts (default $VIRNUCPRO_BENCH_RESULTS_DIR, else results/ in this checkout)',
} as const

const CLUSTER_EXIT =
  'Exit 0; 1 the cluster said no (its message, one line: no sbatch on PATH, unknown partition, job rejected); 2 bad arguments.'

export const slurmSubmitSpec = {
  name: 'slurm submit',
  summary: 'Run the gpu suites on cluster nodes as one Slurm job array (a task per node) under one run ID.',
  options: {
    partition: {
      type: 'string',
      value: 'LIST',
      description: "partitions, comma-separated: --nodes tasks in each (default: the cluster's default partition)",
    },
    nodes: { type: 'string', value: 'N', description: 'array tasks per partition, each on one node (default 1)' },
    'gpus-per-node': {
      type: 'string',
      value: 'K',
      description: 'GPUs each task asks for, as --gres=gpu:K (default 0: none asked for)',
    },
    'cpus-per-task': { type: 'string', value: 'N', description: "CPUs each task asks for (default: the cluster's)" },
    'time-limit-min': { type: 'string', value: 'MIN', description: 'wall-clock limit of each task (default 60)' },
    account: { type: 'string', value: 'NAME', description: 'Slurm account to charge' },
    qos: { type: 'string', value: 'NAME', description: 'Slurm quality of service' },
    exclusive: { type: 'boolean', description: 'no other job shares a task node (wanted for timings)' },
    suites: {
      type: 'string',
      value: 'LIST',
      description: 'gpu suites by name, comma-separated, e.g. scaling,stage-throughput (default: all of them)',
    },
    'shard-input': {
      type: 'string',
      value: 'FASTA',
      description:
        'sharded production run: every task runs the shard suite on its own work-stratified shard of this input',
    },
    'one-node': {
      type: 'boolean',
      description: 'with --shard-input: the last task runs the whole input on one node, for N nodes against 1 measured',
    },
    device: {
      type: 'string',
      value: 'DEV',
      description:
        'gpu, or cpu: every configuration on the CPU, to dry-run a campaign on a CPU partition (default gpu)',
    },
    export: {
      type: 'string',
      value: 'NAMES',
      description: 'more variables to carry from here, comma-separated (VIRNUCPRO_* and REFPIPE_* always are)',
    },
    'run-id': {
      type: 'string',
      value: 'ID',
      description: 'the run ID every task shares (default $VIRNUCPRO_BENCH_RUN_ID, else a new one)',
    },
    'results-dir': RESULTS_DIR,
    'node-exe': { type: 'string', value: 'FILE', description: 'node executable on the nodes (default: this one)' },
    'dry-run': { type: 'boolean', description: 'print the sbatch script instead of submitting it; writes nothing' },
    k8s: { type: 'boolean', description: 'with --dry-run: print a Kubernetes Indexed Job manifest instead' },
    image: {
      type: 'string',
      value: 'IMAGE',
      description: 'with --k8s: image with node, torch and this checkout at /opt/virnucpro-bench',
    },
    claim: {
      type: 'string',
      value: 'NAME',
      description: 'with --k8s: ReadWriteMany volume claim of the results root (default virnucpro-bench-results)',
    },
  },
  notes: [
    'Every task runs `vitest run --project gpu SUITES` in this checkout (which, like the results root, must be on a',
    'filesystem the nodes share: each task checks the probe file the submit side writes and stops at once if it is',
    "not there). Records are named per host and task (`<id>.<host>-t<task>`); `report` merges the run's directory.",
    'With --shard-input the tasks run benchmarks/shard.gpu.test.ts, task i of N on shard i/N of the input (which the',
    'nodes must see at the same path); --one-node adds the whole input on one node as the last task, else the report',
    "projects one node from the shards' own size models.",
    CLUSTER_EXIT,
  ],
  examples: [
    'virnucpro-bench slurm submit --partition gpu-h200 --nodes 4 --gpus-per-node 8 --exclusive --suites scaling',
    'virnucpro-bench slurm submit --nodes 2 --device cpu --suites stage-throughput --dry-run',
    'virnucpro-bench slurm submit --partition gpu-h200 --nodes 5 --gpus-per-node 8 --shard-input /shared/sample.fa.gz --one-node',
    'virnucpro-bench slurm submit --nodes 2 --gpus-per-node 8 --dry-run --k8s --image registry/virnucpro-bench:1',
  ],
} as const satisfies CommandSpec

export const slurmStatusSpec = {
  name: 'slurm status',
  summary: "A run's tasks: Slurm's state (squeue), host, time, the suites' exit status, records so far.",
  operands: 'RUN_ID',
  positionals: true,
  options: {
    'results-dir': RESULTS_DIR,
    json: { type: 'boolean', description: 'print the status as JSON' },
  },
  notes: [CLUSTER_EXIT],
  examples: ['virnucpro-bench slurm status 2026-11-25T09-00-00Z-ab12'],
} as const satisfies CommandSpec

export const slurmCancelSpec = {
  name: 'slurm cancel',
  summary: "Cancel a run's pending and running tasks (scancel); records already written stay.",
  operands: 'RUN_ID',
  positionals: true,
  options: {},
  notes: [CLUSTER_EXIT],
  examples: ['virnucpro-bench slurm cancel 2026-11-25T09-00-00Z-ab12'],
} as const satisfies CommandSpec

export const slurmSpec = {
  name: 'slurm',
  summary: 'Benchmark campaigns over cluster nodes through Slurm: submit, status, cancel (and a Kubernetes manifest).',
  options: {},
  subcommands: { submit: slurmSubmitSpec, status: slurmStatusSpec, cancel: slurmCancelSpec },
  examples: [
    'virnucpro-bench slurm submit --partition gpu --nodes 2 --gpus-per-node 8 --suites scaling',
    'virnucpro-bench slurm status 2026-11-25T09-00-00Z-ab12',
  ],
  notes: ['Exit 0; 1 the cluster said no (one line, in its words); 2 bad arguments. docs/slurm.md has the details.'],
} as const satisfies CommandSpec
