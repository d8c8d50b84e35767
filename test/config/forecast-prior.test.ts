import { describe, expect, test } from 'vitest'
import {
  type ForecastPrior,
  itemsPerKbAt,
  meanLengthBp,
  presetMeanLengthBp,
  priorArchitectures,
  priorKind,
  priorKinds,
  type RunCost,
  readForecastPrior,
  runCostMs,
  runCostOf,
} from '../../src/config/forecast-prior.ts'

const prior = readForecastPrior()
const H200 = 'NVIDIA H200'
const H100 = 'NVIDIA H100 80GB HBM3'

describe('the cost prior: what a run costs before any has run here', () => {
  test("the kind is GPU 0's NVML name, or the CPU stand-in where the target runs on the CPU", () => {
    expect(priorKind('gpu', ['NVIDIA H200', 'NVIDIA H200'])).toBe('NVIDIA H200')
    expect(priorKind('cpu', ['NVIDIA H100 (fake)'])).toBe('CPU')
    expect(priorKind('gpu', [])).toBeNull()
  })

  test('a kind, a GPU count or a scale with no runs measured has no cost; VirNucPro has one at any scale', () => {
    const reference = { pipeline: 'reference', scale: 'full', architecture: 'v2.0' } as const
    expect(runCostOf(prior, { ...reference, kind: 'NVIDIA A100-SXM4-80GB', gpus: 1 })).toBeNull()
    expect(runCostOf(prior, { ...reference, kind: H200, gpus: 4 })).toBeNull()
    expect(runCostOf(prior, { ...reference, scale: 'small', kind: H200, gpus: 1 })).toBeNull()
    expect(
      runCostOf(prior, { pipeline: 'virnucpro', scale: 'full', kind: H200, gpus: 1, architecture: 'v1.0' }),
    ).not.toBeNull()
    expect(priorKinds(prior, 'reference', 'full').sort()).toEqual([H100, H200])
  })

  // Issue 56: VirNucPro's v2.0 (--parallel) and v1.0 cost very differently on one GPU (v2.0's ESM-2 buffers before
  // its first batch, and builds ESM-2 once); the suite runs v2.0 by default, its prior measured on v1.0 first.
  test('a run is priced by a cost of its own architecture, or of one that does not tell them apart; never by the other', () => {
    const vnp = (kind: string, architecture: 'v1.0' | 'v2.0' | null) =>
      runCostOf(prior, { pipeline: 'virnucpro', scale: 'full', kind, gpus: 1, architecture })
    expect(vnp(H200, 'v2.0')).toMatchObject({ architecture: 'v2.0', buildPerFileMs: null })
    expect(vnp(H200, 'v1.0')).toMatchObject({ architecture: 'v1.0' })
    expect(vnp(H200, 'v1.0')!.buildPerFileMs).toBeGreaterThan(0)
    // The H100 measured v1.0 only: a v2.0 run there has no prior, not v1.0's.
    expect(vnp(H100, 'v1.0')).toMatchObject({ architecture: 'v1.0' })
    expect(vnp(H100, 'v2.0')).toBeNull()
    expect(vnp(H200, null)).toBeNull()
    expect(priorArchitectures(prior, { pipeline: 'virnucpro', scale: 'full', kind: H100, gpus: 1 })).toEqual(['v1.0'])
    // The reference pipeline's costs tell no architecture: either path gets the same.
    for (const architecture of ['v1.0', 'v2.0'] as const) {
      const cost = runCostOf(prior, { pipeline: 'reference', scale: 'full', kind: H200, gpus: 1, architecture })
      expect(cost).toMatchObject({ architecture: null, pipeline: 'reference' })
    }
    // Where a kind keeps both, its own architecture's cost before one that tells none apart.
    const cost = (architecture: RunCost['architecture'], startMs: number): RunCost => ({
      pipeline: 'p',
      scale: null,
      kind: 'K',
      gpus: 1,
      architecture,
      startMs,
      perKbMs: 1,
      buildPerFileMs: null,
      from: 'test',
    })
    const both: ForecastPrior = { ...prior, costs: [cost(null, 1), cost('v2.0', 2)] }
    const at = { pipeline: 'p', scale: 'full', kind: 'K', gpus: 1 }
    expect(runCostOf(both, { ...at, architecture: 'v2.0' })!.startMs).toBe(2)
    expect(runCostOf(both, { ...at, architecture: 'v1.0' })!.startMs).toBe(1)
  })

  test("mean lengths: a uniform's midpoint, a log-normal's mean, a histogram's", () => {
    expect(presetMeanLengthBp('MEDIUM')).toBe(850)
    expect(presetMeanLengthBp('TYPICAL')).toBeCloseTo(800 * Math.exp(0.125), 6)
    expect(
      meanLengthBp({ kind: 'empirical', min: 0, max: 20, histogram: { edges: [0, 10, 20], counts: [1, 3] } }),
    ).toBe(12.5)
  })

  test("VirNucPro's 1-GPU v1.0 runs pay a build of ESM-2 for every file of 10,000 proteins past the first, v2.0's none", () => {
    const cost = runCostOf(prior, { pipeline: 'virnucpro', scale: 'full', kind: H200, gpus: 1, architecture: 'v1.0' })!
    const perFile = prior.perFile.find((f) => f.pipeline === 'virnucpro')!
    const at = (records: number) => runCostMs(cost, perFile, { records, meanLengthBp: 500 })
    const proteinsPerRecord = (itemsPerKbAt(perFile, 500) * 500) / 1000
    const oneFile = Math.floor(10_000 / proteinsPerRecord)
    // One record more makes a second file: its build, and one record's work.
    expect(at(oneFile + 1) - at(oneFile)).toBeCloseTo(cost.buildPerFileMs! + cost.perKbMs * 0.5, 6)
    // v2.0 builds ESM-2 once a worker: the same size costs its line alone, however many files v1.0 would make.
    const v2 = runCostOf(prior, { pipeline: 'virnucpro', scale: 'full', kind: H200, gpus: 1, architecture: 'v2.0' })!
    const v2At = (records: number) => runCostMs(v2, perFile, { records, meanLengthBp: 500 })
    expect(v2At(3 * oneFile) - v2At(oneFile)).toBeCloseTo(v2.perKbMs * oneFile, 6)
    // Interpolated between the neighbouring lengths measured, clamped beyond them.
    const points = perFile.itemsPerKb.toSorted((a, b) => a.meanLengthBp - b.meanLengthBp)
    const [short, next] = points
    expect(itemsPerKbAt(perFile, 100)).toBe(short!.itemsPerKb)
    expect(itemsPerKbAt(perFile, 5_000)).toBe(points.at(-1)!.itemsPerKb)
    const mid = (short!.meanLengthBp + next!.meanLengthBp) / 2
    expect(itemsPerKbAt(perFile, mid)).toBeCloseTo((short!.itemsPerKb + next!.itemsPerKb) / 2, 9)
    // Short reads make more proteins a kilobase (six frames of each read, however short): measured at 150 bp too.
    expect(short!.meanLengthBp).toBeLessThan(200)
    expect(short!.itemsPerKb).toBeGreaterThan(2 * next!.itemsPerKb)
  })
})
