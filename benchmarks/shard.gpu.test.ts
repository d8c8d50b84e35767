/**
 * Sharded production mode, one array task: VIRNUCPRO_BENCH_SHARD=<index>/<count> (0-based index) names the shard of
 * the input this node runs: VIRNUCPRO_BENCH_INPUT (the whole of it), else the suite preset's fixture. The shard is
 * work-stratified (every shard carries the same GPU work: src/input/shard.ts) and runs on all of this node's GPUs,
 * beside a nested tenth of it (for the shard's size model), 1 warm-up each + VIRNUCPRO_BENCH_RUNS; one `shard` record
 * goes into results/<runId>/. Every task of one array must share the run ID (VIRNUCPRO_BENCH_RUN_ID) and the results
 * root; `virnucpro-bench report results/<runId>` then merges the shards: fleet throughput, the straggler, N nodes
 * against 1 (a task with VIRNUCPRO_BENCH_SHARD=0/1 measures one node on the whole input).
 * Unset VIRNUCPRO_BENCH_SHARD skips the test (this is no array task); a bad value fails it with one line.
 * GPU machine: VIRNUCPRO_BENCH_SHARD=0/4 VIRNUCPRO_BENCH_RUN_ID=<id> npx vitest run --project gpu benchmarks/shard.gpu.test.ts
 */
import { expect, test } from 'vitest'
import { SHARD_ENV, shardFromEnv } from '../src/engine/shard-settings.ts'
import type { ShardStats } from '../src/results/schema/index.ts'
import { runShardSuite } from '../src/suites/shard/shard-suite.ts'
import { annotateVerdicts } from './support/annotate-record.ts'
import { DATASET_CACHE_DIR } from './support/dataset.ts'
import { gpuAvailable } from './support/gpu.ts'
import { createRunContext, firstGpus } from './support/run-context.ts'
import { expectJudged, expectNoFail } from './support/suite-assert.ts'

test(`one shard of the input on this node's GPUs (${SHARD_ENV}=${process.env[SHARD_ENV] ?? 'unset'})`, async (context) => {
  // Parsed before any GPU work: a bad value is the task's one error, before a shard is written or a run started.
  const spec = shardFromEnv()
  if (!spec) context.skip(`${SHARD_ENV} is not set: the shard suite runs as an array task (e.g. ${SHARD_ENV}=0/4)`)
  if (!gpuAvailable()) return
  const rc = await createRunContext(1)
  if (rc.unavailable) context.skip(rc.unavailable)
  // The whole input: the user's, or the preset's fixture at its size (VIRNUCPRO_BENCH_RECORDS).
  const source = rc.inputs.user ?? (await rc.inputs.input(rc.settings.preset, rc.settings.records)).source
  const gpus = firstGpus(rc.gpuCount)
  const { input: _input, ...m } = rc.measure(source.files[0]!)
  const { record } = await runShardSuite(rc.ctx, m, {
    config: rc.configs.base(gpus),
    gpuCount: gpus.length,
    spec: spec!,
    source,
    cacheDir: DATASET_CACHE_DIR,
  })
  await annotateVerdicts(record, context.annotate)
  expect(record.state, record.reason ?? '').toBe('completed')
  const stats = record.stats as unknown as ShardStats
  expect(stats.shard).toEqual(spec)
  expect(stats.measuredRuns).toBeGreaterThan(0)
  expect(stats.subset, stats.subsetProblem ?? '').not.toBeNull()
  expectJudged(record)
  expectNoFail(record, /^perf02\//)
})
