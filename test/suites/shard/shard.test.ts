// Shard suite end to end on the CPU: the reference pipeline at tiny scale stands in for a node's GPUs, real runs on
// real shards of one generated input; the fake NVML is scripted (CPU runs use no GPU), so utilization and energy are
// the script's while times, sizes, sequences and the split come from the runs.
import { readFile } from 'node:fs/promises'
import { describe, expect, test } from 'vitest'
import { createInputResolver } from '../../../src/input/resolver.ts'
import { analyzeShards } from '../../../src/report/analyses/fleet-shards.ts'
import type { ResultRecord, ShardStats } from '../../../src/results/schema/index.ts'
import { parseResultRecord } from '../../../src/results/store.ts'
import { SHARD_SUBSET_SHARE } from '../../../src/suites/shard/shard-input.ts'
import { runShardSuite } from '../../../src/suites/shard/shard-suite.ts'
import { referencePipelineOnCpu } from '../../support/reference-pipeline.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted } from '../support/cpu-suite.ts'

const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')('shard suite on the CPU', () => {
  test('two shards of one input: each a valid shard record, together the whole input, with a subset for the size model', async () => {
    const ctx = await cpuContext()
    const cacheDir = tempDirUntilFileEnd('shard-inputs-')
    const resolver = await createInputResolver({ cacheDir })
    const source = (await resolver.input('SMALL', 40)).source
    const { input: _input, ...m } = scripted([fakeGpu(90)], 2, 0)
    const stats: ShardStats[] = []
    const records: ResultRecord[] = []
    for (const index of [0, 1]) {
      const { record, path } = await runShardSuite(ctx, m, {
        config: cpuConfig('cpu tiny'),
        gpuCount: 0,
        spec: { index, count: 2 },
        source,
        cacheDir,
      })
      expect(parseResultRecord(await readFile(path, 'utf8'), path)).toHaveProperty('record')
      expect(record.kind).toBe('shard')
      expect(record.state, record.reason ?? '').toBe('completed')
      const s = record.stats as unknown as ShardStats
      stats.push(s)
      records.push(record)
      expect(s.shard).toEqual({ index, count: 2 })
      expect(s.source).toMatchObject({ sha256: source.sha256, records: 40 })
      expect(s.measuredRuns).toBe(2)
      // The pipeline processed exactly the shard's records.
      expect(s.sequences).toBe(s.full.records)
      expect(s.subset?.records).toBe(Math.round(s.full.records * SHARD_SUBSET_SHARE))
      expect(s.subset!.sequenceEquivalents).toBeLessThan(s.full.sequenceEquivalents)
      // Runs of each arm are labelled by the arm's setup: the report fits the size model from them.
      const setups = record.runs.map((r) => r.config.setup)
      expect(setups.filter((x) => x === s.full.setup)).toHaveLength(2)
      expect(setups.filter((x) => x === s.subset!.setup)).toHaveLength(2)
      expect(s.host).toBe(record.provenance.host.hostname)
      expect(s.gpuModel).toBe('NVIDIA H200 (fake)')
      expect(s.wallMs!.median).toBeGreaterThan(0)
      expect(s.energyJ?.median).toBeGreaterThan(0)
      expect(s.stages.map((x) => x.stage)).toContain('ESM-2 Feature Extraction')
      expect(record.verdicts.some((v) => v.id.startsWith('perf02/'))).toBe(true)
      expect(record.provenance.input?.used.map((u) => u.kind)).toEqual(['subset', 'subset'])
    }
    expect(stats[0]!.full.records + stats[1]!.full.records).toBe(40)
    expect(stats[0]!.full.work + stats[1]!.full.work).toBe(stats[0]!.source.work)
    // The report merges them: one run of 2 shards, its fleet time the slower shard's, 2 nodes against 1 projected
    // from the shards' own size models (no 0/1 task ran).
    const [run] = analyzeShards(records).runs
    expect(run).toMatchObject({ count: 2, missing: [], incomplete: null })
    expect(run!.fleet!.sequences).toBe(40)
    expect(run!.fleet!.wallMs.ci).not.toBeNull()
    expect(run!.vsOneNode).toMatchObject({
      state: 'judged',
      method: 'projected',
      nodes: 2,
      band: { low: 1.6, high: 2 },
    })
  }, 120_000)

  test('a shard whose pipeline crashes: a failed record naming the run and its error, an error verdict, no figures', async () => {
    const ctx = await cpuContext()
    const cacheDir = tempDirUntilFileEnd('shard-inputs-')
    const source = (await (await createInputResolver({ cacheDir })).input('SMALL', 20)).source
    const { input: _input, ...m } = scripted([fakeGpu(90)], 1, 0)
    const { record } = await runShardSuite(ctx, m, {
      config: cpuConfig('cpu crash', ['--inject', 'crash-at=ESM-2 Feature Extraction']),
      gpuCount: 0,
      spec: { index: 1, count: 2 },
      source,
      cacheDir,
    })
    expect(record.state).toBe('failed')
    expect(record.reason).toMatch(/shard 1\/2 run 1 ended as failed: exit code 1: injected crash/)
    expect(record.verdicts.map((v) => v.verdict)).toEqual(['error'])
    expect((record.stats as unknown as ShardStats).wallMs).toBeNull()
  }, 60_000)

  test('a shard count above the input size is refused before any run', async () => {
    const ctx = await cpuContext()
    const cacheDir = tempDirUntilFileEnd('shard-inputs-')
    const source = (await (await createInputResolver({ cacheDir })).input('SMALL', 5)).source
    const { input: _input, ...m } = scripted([fakeGpu(90)], 1, 0)
    await expect(
      runShardSuite(ctx, m, { config: cpuConfig('cpu'), gpuCount: 0, spec: { index: 0, count: 6 }, source, cacheDir }),
    ).rejects.toThrow("shard count must be an integer in [1, 5] (the input's record count), got 6")
  })
})
