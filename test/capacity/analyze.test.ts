// Capacity suite end to end on the CPU: the reference pipeline's worker processes (--cpu-workers) stand in for GPUs,
// two nested sizes of one generated input, real runs; the fake NVML is scripted (CPU runs use no GPU), so the
// utilization figures are the script's while times, sizes and fits come from the runs.
import { copyFile } from 'node:fs/promises'
import { join } from 'node:path'
import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { CapacityStats } from '../../src/capacity/analyze.ts'
import { curveSizes } from '../../src/capacity/model.ts'
import { runCapacitySuite } from '../../src/capacity/suite.ts'
import { createInputResolver } from '../../src/input/resolver.ts'
import { cpuConfig, cpuContext, fakeGpu, scripted } from '../suites/support/cpu-suite.ts'
import { referencePipelineOnCpu } from '../support/reference-pipeline.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const ready = await referencePipelineOnCpu()

describe.skipIf(ready.state !== 'ready')('capacity suite on the CPU', () => {
  test('1 and 2 workers at two nested sizes: a size model each, projections to 45,000 and 6,000,000, break-even', async () => {
    const ctx = await cpuContext()
    const resolver = await createInputResolver({ cacheDir: tempDirUntilFileEnd('capacity-inputs-') })
    const inputs = await resolver.nested('SMALL', [8, 40])
    const { input: _input, ...m } = scripted([fakeGpu(90), fakeGpu(90)], 2, 0)
    // A planted per-batch stall in small ESM-2 batches gives every sequence a known cost on top of the tiny models':
    // on a loaded 2-core machine the start-up's noise (~0.3 s) can otherwise outweigh 32 more sequences of tiny work
    // and tip the fitted slope below zero (seen in CI: -0.57 ms a sequence).
    const perSequence = ['--esm-batch-size', '512', '--inject', 'cpu-stall-ms=20']
    const configs = [
      { config: cpuConfig('1 worker', ['--cpu-workers', '1', ...perSequence]), gpuCount: 1 },
      { config: cpuConfig('2 workers', ['--cpu-workers', '2', ...perSequence]), gpuCount: 2 },
    ]
    const { record } = await runCapacitySuite({ ...ctx, inputs: resolver }, m, configs, inputs)
    expect(record.kind).toBe('capacity')
    expect(record.state, record.reason ?? '').toBe('completed')
    expect(record.runs).toHaveLength(8)
    const stats = record.stats as unknown as CapacityStats
    expect(stats.sizes).toEqual([8, 40])
    expect(stats.configurations.map((c) => c.gpuCount)).toEqual([1, 2])
    for (const c of stats.configurations) {
      expect(c.sizes.map((s) => s.runs)).toEqual([2, 2])
      expect(c.wall.msPerSequence.estimate).toBeGreaterThan(0)
      // Every projection is the wall line at its size, and the parts add up to it: within 0.1%, since a projection
      // is the parts' sum at the size (capacity/parts.ts partValue), and a part the model counts per file is a step
      // there, not a line (one CI run: 4,579.000 ms against the line's 4,578.039).
      for (const at of c.at) {
        const line = c.wall.fixedMs.estimate + c.wall.msPerSequence.estimate * at.sequences
        expect(Math.abs(at.wallMs.estimate - line) / line, `at ${at.sequences} sequences`).toBeLessThan(1e-3)
      }
      const partsPerSequence = c.parts.reduce((a, p) => a + p.msPerSequence.estimate, 0)
      expect(partsPerSequence).toBeCloseTo(c.wall.msPerSequence.estimate, 6)
      expect(c.at[2]!.wallMs.ci!.low).toBeLessThan(c.at[2]!.wallMs.estimate)
    }
    expect(stats.comparisons).toHaveLength(1)
    const ids = record.verdicts.map((v) => v.id)
    for (const id of [
      'capacity/1/perf01/measured',
      'capacity/1/perf01/45000',
      'capacity/2/perf01/6000000',
      'capacity/2/speedup/45000',
      'capacity/2/speedup/asymptotic',
      'capacity/2/break-even',
      'capacity/2/perf03/6000000',
    ])
      expect(ids).toContain(id)
    expect(record.provenance.input?.used.map((u) => u.records)).toEqual([8, 40])
  }, 180_000)

  test('a configuration whose runs fail has no size model: its verdict is error with the failure, the others stand', async () => {
    const ctx = await cpuContext()
    const resolver = await createInputResolver({ cacheDir: tempDirUntilFileEnd('capacity-inputs-') })
    const inputs = await resolver.nested('SMALL', [8, 16])
    const { input: _input, ...m } = scripted([fakeGpu(90), fakeGpu(90)], 2, 0)
    const configs = [
      { config: cpuConfig('1 worker', ['--cpu-workers', '1']), gpuCount: 1 },
      { config: cpuConfig('2 workers', ['--cpu-workers', '2', '--inject', 'crash-at=Sequence Chunking']), gpuCount: 2 },
    ]
    const { record } = await runCapacitySuite({ ...ctx, inputs: resolver }, m, configs, inputs)
    expect(record.state).toBe('failed')
    const fit = record.verdicts.find((v) => v.id === 'capacity/2/fit')!
    expect(fit.verdict).toBe('error')
    expect(fit.detail).toMatch(/2 workers, 8 seqs run 1 ended as failed/)
    expect(record.verdicts.some((v) => v.id.startsWith('capacity/2/speedup'))).toBe(false)
    // The interleaved measurement went on without the failed arm: 1 worker has its model and projections.
    const stats = record.stats as unknown as CapacityStats
    expect(stats.configurations.map((c) => c.label)).toEqual(['1 worker'])
    expect(record.verdicts.find((v) => v.id === 'capacity/1/perf01/6000000')?.verdict).not.toBe('error')
  }, 180_000)

  test("on the user's own sample, its whole size is projected to as well", async () => {
    const ctx = await cpuContext()
    const dir = tempDirUntilFileEnd('capacity-user-')
    const generated = await createInputResolver({ cacheDir: join(dir, 'gen') })
    const sample = join(dir, 'my-sample.fa')
    await copyFile((await generated.input('SMALL', 60)).file, sample)
    const resolver = await createInputResolver({ userInput: sample, cacheDir: join(dir, 'cache') })
    const inputs = await resolver.nested('SMALL', [8, 20])
    const { input: _input, ...m } = scripted([fakeGpu(90)], 2, 0)
    const configs = [{ config: cpuConfig('1 worker', ['--cpu-workers', '1']), gpuCount: 1 }]
    const { record } = await runCapacitySuite({ ...ctx, inputs: resolver }, m, configs, inputs)
    const stats = record.stats as unknown as CapacityStats
    expect(stats.input).toMatchObject({ source: 'user', path: sample, records: 60 })
    expect(stats.configurations[0]!.at.map((a) => Math.round(a.sequences))).toContain(60)
    expect(record.verdicts.some((v) => v.id === 'capacity/1/perf01/60')).toBe(true)
    expect(record.provenance.input?.source.sha256).toBe(resolver.user!.sha256)
  }, 120_000)
})

describe('curveSizes', () => {
  test('starts at or below the smallest measured size (100 at most) and reaches 10x the largest target', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1_000, max: 100_000_000 }),
        (smallest, target) => {
          const sizes = curveSizes(smallest, target)
          expect(sizes[0]!).toBeLessThanOrEqual(Math.min(100, smallest))
          expect(sizes.at(-1)!).toBeGreaterThanOrEqual(target * 10 * 0.99)
          for (let i = 1; i < sizes.length; i++) expect(sizes[i]!).toBeGreaterThanOrEqual(sizes[i - 1]!)
        },
      ),
    )
  })
})
