// The campaign docs/slurm.md shows: its sbatch script and Kubernetes manifest are this campaign rendered, and
// test/cluster/docs.test.ts checks that they still are.
import type { Campaign } from '../../../src/cluster/campaign.ts'

export const DOC_CAMPAIGN: Campaign = {
  runId: '2026-11-25T09-00-00Z-ab12',
  resultsRoot: '/shared/bench/results',
  repoDir: '/shared/bench/virnucpro-bench',
  nodeExe: '/shared/tools/node-24/bin/node',
  partitions: ['gpu-h200'],
  nodesPerPartition: 2,
  gpusPerNode: 8,
  cpusPerTask: 32,
  timeLimitMin: 120,
  account: 'virology',
  qos: null,
  exclusive: true,
  suiteFiles: ['benchmarks/scaling.gpu.test.ts', 'benchmarks/stage-throughput.gpu.test.ts'],
  env: { VIRNUCPRO_BENCH_DEVICE: 'gpu', VIRNUCPRO_BENCH_RUNS: '5' },
  taskEnv: [],
  probeToken: '5f1d0c3a9e27b468',
}

/** The Kubernetes variant: the image's checkout and node, the results root mounted at /results. */
export const DOC_K8S_CAMPAIGN: Campaign = {
  ...DOC_CAMPAIGN,
  partitions: [],
  account: null,
  resultsRoot: '/results',
  repoDir: '/opt/virnucpro-bench',
  nodeExe: 'node',
}
export const DOC_K8S_OPTIONS = {
  image: 'registry.example.org/virnucpro-bench:2026-11',
  claimName: 'virnucpro-bench-results',
}
