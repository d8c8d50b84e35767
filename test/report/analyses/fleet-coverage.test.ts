// Does the N-nodes-against-1 CI cover run-to-run variation? Simulated shards whose wall time is a known line plus
// normal run-to-run noise, 3 runs at each of the two sizes the shard suite measures (the shard and a tenth of it): the
// 95% CI of the speedup must hold the true speedup in about 95% of simulated campaigns.
import { describe, expect, test } from 'vitest'
import { DEFAULT_THRESHOLDS } from '../../../src/config/thresholds.ts'
import { createRandomSource, fitSizeModel, type RandomSource } from '../../../src/measure/index.ts'
import { compareWithOneNode } from '../../../src/report/analyses/fleet-shard-compare.ts'
import type { ShardMeasured } from '../../../src/report/analyses/fleet-shard-models.ts'

const normal = (random: RandomSource) => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random())
const TRIALS = 300
const RUNS = 3
const SD_MS = 40
const PER_SEQUENCE_MS = 10

/** A simulated shard record at `size` sequence-equivalents (and a tenth of it) whose wall time is fixedMs + 10 ms/seq. */
function shard(
  index: number,
  fixedMs: number,
  size: number,
  sourceRecords: number,
  random: RandomSource,
): ShardMeasured {
  const run = (s: number) => ({ size: s, values: { wall: fixedMs + PER_SEQUENCE_MS * s + SD_MS * normal(random) } })
  const runs = [size, size / 10].flatMap((s) => Array.from({ length: RUNS }, () => run(s)))
  const model = fitSizeModel(runs, { series: ['wall'], draws: 1_000, random: createRandomSource(random()) })
  return {
    record: { id: `s${index}`, provenance: { runId: 'sim' } },
    stats: {
      shard: { index, count: 4 },
      full: { sequenceEquivalents: size },
      source: { records: sourceRecords },
      host: 'sim',
    },
    full: runs.filter((r) => r.size === size).map((r) => ({ wallMs: r.values.wall, energyJ: null, stagesMs: {} })),
    subset: [],
    model,
    modelProblem: null,
  } as unknown as ShardMeasured
}

/** Shards of 200 sequences with fixed costs 1,000-1,300 ms: shard 3 is the slowest (3,300 ms), by 100 ms. */
const FIXED = [1_000, 1_100, 1_200, 1_300]

interface Coverage {
  /** Share of campaigns whose 95% CI holds the true speedup. */
  rate: number
  /** Mean CI half-width over 1.96 x the estimate's sd across campaigns: 1 is exact, above 1 conservative. */
  widthRatio: number
}

function coverage(measuredOneNode: boolean, seed: string): Coverage {
  const random = createRandomSource(seed)
  const slowest = FIXED[3]! + PER_SEQUENCE_MS * 200
  // One node on all 800: measured (fixed 1,150 ms), or projected: the median of the shards' own lines at 800, the same.
  const truth = (1_150 + PER_SEQUENCE_MS * 800) / slowest
  let covered = 0
  const estimates: number[] = []
  const halfWidths: number[] = []
  for (let t = 0; t < TRIALS; t++) {
    const shards = FIXED.map((fixed, i) => shard(i, fixed, 200, 800, random))
    const single = measuredOneNode ? shard(9, 1_150, 800, 800, random) : null
    const c = compareWithOneNode(shards, single, DEFAULT_THRESHOLDS, null)
    if (c.state !== 'judged' || !c.speedup.ci) throw new Error(c.state === 'judged' ? 'no CI' : c.reason)
    if (c.speedup.ci.low <= truth && truth <= c.speedup.ci.high) covered++
    estimates.push(c.speedup.value)
    halfWidths.push((c.speedup.ci.high - c.speedup.ci.low) / 2)
  }
  const mean = (xs: number[]) => xs.reduce((a, x) => a + x, 0) / xs.length
  const m = mean(estimates)
  const sd = Math.sqrt(estimates.reduce((a, x) => a + (x - m) ** 2, 0) / (estimates.length - 1))
  return { rate: covered / TRIALS, widthRatio: mean(halfWidths) / (1.96 * sd) }
}

// Measured here (400 campaigns, 3 runs a size): one node measured 97% with CIs 1.44x the estimate's own spread,
// projected 99% at 1.31x; with 5 runs a size 94.5% (1.14x) and 98.8% (1.10x). Conservative at 3 runs, as the size
// model's comparisons of two configurations are (src/measure/README.md): verdicts lean to inconclusive, never wrong.
describe('N nodes against 1: CI coverage of the speedup', () => {
  test('one node measured (a 0/1 task with its own two sizes): the 95% CI covers the truth in 93-99% of campaigns', () => {
    const { rate, widthRatio } = coverage(true, 'fleet-coverage-measured')
    expect(rate).toBeGreaterThanOrEqual(0.93)
    expect(rate).toBeLessThanOrEqual(0.99)
    expect(widthRatio).toBeLessThan(1.7)
  }, 60_000)

  test("one node projected from the shards' own lines: covers the truth in >= 93%, CIs at most 1.7x as wide as needed", () => {
    const { rate, widthRatio } = coverage(false, 'fleet-coverage-projected')
    expect(rate).toBeGreaterThanOrEqual(0.93)
    expect(widthRatio).toBeGreaterThan(1)
    expect(widthRatio).toBeLessThan(1.7)
  }, 60_000)
})
