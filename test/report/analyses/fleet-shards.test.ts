// Sharded runs merged on the fleet fixtures (4 real CPU shards of one input and a real 1-node run of all of it; shard 3
// ran with an injected 1.5 s ESM-2 delay), and what the merge says when a side was not measured.
import { describe, expect, test } from 'vitest'
import { analyzeShards } from '../../../src/report/analyses/fleet-shards.ts'
import type { ResultRecord } from '../../../src/results/schema/index.ts'
import { fleetRecords, SHARD_DIR } from '../support/fleet.ts'

const records = (await fleetRecords([SHARD_DIR])).filter((r) => r.kind === 'shard')
const SOLO = 'shard-0-of-1-cpu-tiny-shard-node-solo'
const shards = records.filter((r) => r.id !== SOLO)
const [run] = analyzeShards(records).runs
const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length
/** Completed full-shard wall times of a record (runs of its full arm, not of its subset). */
const fullWalls = (r: ResultRecord) =>
  r.runs.filter((m) => m.config.setup === (r.stats as { full: { setup: string } }).full.setup).map((m) => m.run.wallMs)

/** Copies of the shard records with `change` applied. */
const edited = (list: ResultRecord[], change: (r: ResultRecord) => ResultRecord | null) =>
  list.flatMap((r) => change(structuredClone(r)) ?? [])

describe('a complete sharded run with a 1-node run of the whole input', () => {
  test('one run of 4 shards, each with its host and size; the 1-node record is its baseline, not a run of its own', () => {
    expect(analyzeShards(records).runs).toHaveLength(1)
    expect(run!.count).toBe(4)
    expect(run!.shards.map((s) => [s.index, s.host, s.records])).toEqual([
      [0, 'shard-node-0', 20],
      [1, 'shard-node-1', 20],
      [2, 'shard-node-2', 20],
      [3, 'shard-node-3', 20],
    ])
    expect(run!.missing).toEqual([])
    expect(run!.incomplete).toBeNull()
  })

  test("the fleet's time is the slowest shard's (mean of its runs, as the size model reads them), with a CI", () => {
    const slowest = Math.max(...shards.map((r) => mean(fullWalls(r))))
    const f = run!.fleet!
    expect(f.wallMs.value).toBeCloseTo(slowest, 6)
    expect(f.wallMs.ci!.low).toBeLessThan(f.wallMs.value)
    expect(f.wallMs.ci!.high).toBeGreaterThan(f.wallMs.value)
    expect(f.sequences).toBe(80)
    expect(f.sequencesPerS.value).toBeCloseTo(80_000 / f.wallMs.value, 9)
    expect(f.sequencesPerS.ci).toEqual({ low: 80_000 / f.wallMs.ci!.high, high: 80_000 / f.wallMs.ci!.low })
    const energy = shards.reduce(
      (a, r) => a + mean(r.runs.filter((m) => fullWalls(r).includes(m.run.wallMs)).map((m) => m.gpu!.energy.totalJ!)),
      0,
    )
    expect(f.jPerSequence!.value).toBeCloseTo(energy / 80, 6)
    expect(f.ciProblem).toBeNull()
  })

  test('the straggler is shard 3, and the stage that made it slow is ESM-2 (where the delay was injected)', () => {
    const s = run!.straggler!
    expect(s).toMatchObject({ index: 3, host: 'shard-node-3', gpuModel: 'NVIDIA H200 (fake)' })
    expect(s.stage!.name).toBe('ESM-2 Feature Extraction')
    // The injected delay is 1.5 s; the excess over the other shards' median ESM-2 time must show most of it.
    expect(s.stage!.excessMs).toBeGreaterThan(1_000)
    expect(s.ratio).toBeGreaterThan(1)
    expect(s.balance.verdict).toBe('flag')
  })

  test('4 nodes against 1 measured: speedup = one node / fleet, efficiency = speedup / 4, judged on the 4-GPU band', () => {
    const c = run!.vsOneNode
    if (c.state !== 'judged') throw new Error(c.reason)
    expect(c).toMatchObject({ method: 'measured', nodes: 4, oneNodeRecordId: SOLO, band: { low: 3, high: 4 } })
    const solo = records.find((r) => r.id === SOLO)!
    expect(c.oneNodeMs.value).toBeCloseTo(mean(fullWalls(solo)), 6)
    expect(c.fleetMs.value).toBeCloseTo(run!.fleet!.wallMs.value, 6)
    expect(c.speedup.value).toBeCloseTo(c.oneNodeMs.value / c.fleetMs.value, 9)
    expect(c.efficiency.value).toBeCloseTo(c.speedup.value / 4, 9)
    const ci = c.speedup.ci!
    expect(ci.low).toBeLessThan(c.speedup.value)
    const expected = ci.high < 3 ? 'fail' : ci.low < 3 ? 'inconclusive' : c.speedup.value > 4 ? 'flag' : 'pass'
    expect(c.verdict).toBe(expected)
    // The projection from the shards' own models sits beside it, as a check of both.
    expect(run!.vsOneNodeProjected).toMatchObject({ state: 'judged', method: 'projected', nodes: 4 })
  })

  test("the production size split over the fleet: the slowest shard's share, with PERF-01 on its whole CI", () => {
    const p = run!.production!
    expect(p.sequences).toBe(6_000_000)
    const limit = records[0]!.thresholds.perf01.targetMs
    const { low, high } = p.wallMs.ci!
    expect(p.perf01).toBe(high <= limit ? 'pass' : low > limit ? 'fail' : 'inconclusive')
  })
})

describe('when a side is not measured', () => {
  test('without a 1-node task, one node is projected from the shards: median over the shards of each one alone', () => {
    const [projected] = analyzeShards(shards).runs
    expect(projected!.vsOneNode).toMatchObject({ state: 'judged', method: 'projected', oneNodeRecordId: null })
    expect(projected!.vsOneNodeProjected).toBeNull()
    expect(projected!.vsOneNode).toEqual(run!.vsOneNodeProjected)
  })

  test('without a 1-node task and without subsets (no size model): no verdict, saying what is missing', () => {
    const oneSize = edited(shards, (r) => {
      const stats = r.stats as { full: { setup: string }; subset: unknown; subsetProblem: string | null }
      r.runs = r.runs.filter((m) => m.config.setup === stats.full.setup)
      stats.subset = null
      stats.subsetProblem = 'a shard of 1 record(s) has no smaller subset'
      return r
    })
    const [r] = analyzeShards(oneSize).runs
    expect(r!.vsOneNode).toEqual({
      state: 'no-verdict',
      reason:
        'no verdict: nothing measured for one node: no 0/1 task on the whole input, and shard 0: no size model: a shard of 1 record(s) has no smaller subset',
    })
    // The fleet's own time is still measured, from the runs' means, without a CI; no projection to 6 M.
    expect(r!.fleet!.wallMs.ci).toBeNull()
    expect(r!.fleet!.ciProblem).toMatch(/^shard 0: no size model/)
    expect(r!.production).toBeNull()
  })

  test("a missing shard: the fleet's time is not measured, and every comparison that needs it says so", () => {
    const [r] = analyzeShards(records.filter((x) => !x.id.startsWith('shard-2-of-4'))).runs
    expect(r!.missing).toEqual([2])
    expect(r!.fleet).toBeNull()
    expect(r!.production).toBeNull()
    expect(r!.vsOneNode).toEqual({
      state: 'no-verdict',
      reason: "no verdict: the fleet's time is not measured (shard(s) 2 of 4 have no record)",
    })
  })

  test('a failed shard: named with its reason, no fleet time', () => {
    const failed = edited(records, (r) => {
      if (r.id.startsWith('shard-1-of-4')) {
        r.state = 'failed'
        r.reason = 'cpu tiny, shard 1/4 run 2 ended as oom: CUDA out of memory'
      }
      return r
    })
    const [r] = analyzeShards(failed).runs
    expect(r!.incomplete).toBe('shard 1 failed: cpu tiny, shard 1/4 run 2 ended as oom: CUDA out of memory')
    expect(r!.fleet).toBeNull()
    expect(r!.vsOneNode.state).toBe('no-verdict')
  })

  test('a requeued shard: the newest record of an index counts, the older one is listed as replaced', () => {
    const older = structuredClone(shards[0]!)
    older.id = `${older.id}-first-try`
    older.createdAt = '2026-03-05T08:59:00.000Z'
    const [r] = analyzeShards([older, ...records]).runs
    expect(r!.replaced).toEqual([older.id])
    expect(r!.shards[0]!.recordId).toBe(shards[0]!.id)
  })

  test('the 1-node record alone is a run of one shard: nothing to compare, and it says so', () => {
    const [r] = analyzeShards(records.filter((x) => x.id === SOLO)).runs
    expect(r!.count).toBe(1)
    expect(r!.fleet!.sequences).toBe(80)
    expect(r!.vsOneNode).toEqual({
      state: 'no-verdict',
      reason: 'no verdict: one shard, the whole input on one node: nothing to compare',
    })
  })
})
