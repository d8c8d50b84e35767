import { describe, expect, test } from 'vitest'
import {
  itemsPerKbAt,
  meanLengthBp,
  presetMeanLengthBp,
  priorKind,
  priorKinds,
  readForecastPrior,
  runCostMs,
  runCostOf,
} from '../../src/config/forecast-prior.ts'

const prior = readForecastPrior()

describe('the cost prior: what a run costs before any has run here', () => {
  test("the kind is GPU 0's NVML name, or the CPU stand-in where the target runs on the CPU", () => {
    expect(priorKind('gpu', ['NVIDIA H200', 'NVIDIA H200'])).toBe('NVIDIA H200')
    expect(priorKind('cpu', ['NVIDIA H100 (fake)'])).toBe('CPU')
    expect(priorKind('gpu', [])).toBeNull()
  })

  test('a kind, a GPU count or a scale with no runs measured has no cost; VirNucPro has one at any scale', () => {
    expect(
      runCostOf(prior, { pipeline: 'reference', scale: 'full', kind: 'NVIDIA A100-SXM4-80GB', gpus: 1 }),
    ).toBeNull()
    expect(runCostOf(prior, { pipeline: 'reference', scale: 'full', kind: 'NVIDIA H200', gpus: 4 })).toBeNull()
    expect(runCostOf(prior, { pipeline: 'reference', scale: 'small', kind: 'NVIDIA H200', gpus: 1 })).toBeNull()
    expect(runCostOf(prior, { pipeline: 'virnucpro', scale: 'full', kind: 'NVIDIA H200', gpus: 1 })).not.toBeNull()
    expect(priorKinds(prior, 'reference', 'full').sort()).toEqual(['NVIDIA H100 80GB HBM3', 'NVIDIA H200'])
  })

  test("mean lengths: a uniform's midpoint, a log-normal's mean, a histogram's", () => {
    expect(presetMeanLengthBp('MEDIUM')).toBe(850)
    expect(presetMeanLengthBp('TYPICAL')).toBeCloseTo(800 * Math.exp(0.125), 6)
    expect(
      meanLengthBp({ kind: 'empirical', min: 0, max: 20, histogram: { edges: [0, 10, 20], counts: [1, 3] } }),
    ).toBe(12.5)
  })

  test("VirNucPro's 1-GPU runs pay a build of ESM-2 for every file of 10,000 proteins past the first", () => {
    const cost = runCostOf(prior, { pipeline: 'virnucpro', scale: 'full', kind: 'NVIDIA H200', gpus: 1 })!
    const perFile = prior.perFile.find((f) => f.pipeline === 'virnucpro')!
    const at = (records: number) => runCostMs(cost, perFile, { records, meanLengthBp: 500 })
    const proteinsPerRecord = (itemsPerKbAt(perFile, 500) * 500) / 1000
    const oneFile = Math.floor(10_000 / proteinsPerRecord)
    // One record more makes a second file: its build, and one record's work.
    expect(at(oneFile + 1) - at(oneFile)).toBeCloseTo(cost.buildPerFileMs! + cost.perKbMs * 0.5, 6)
    // Interpolated between the lengths measured, clamped beyond them.
    const [short, long] = perFile.itemsPerKb.toSorted((a, b) => a.meanLengthBp - b.meanLengthBp)
    expect(itemsPerKbAt(perFile, 100)).toBe(short!.itemsPerKb)
    expect(itemsPerKbAt(perFile, 5_000)).toBe(long!.itemsPerKb)
    const mid = (short!.meanLengthBp + long!.meanLengthBp) / 2
    expect(itemsPerKbAt(perFile, mid)).toBeCloseTo((short!.itemsPerKb + long!.itemsPerKb) / 2, 9)
  })
})
