import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { analyzeCapacity } from '../../src/capacity/analyze.ts'
import { bendCheck, bendCheckSizes } from '../../src/capacity/bend.ts'
import {
  buildsShare,
  designCandidates,
  GROWTH_FACTORS,
  largerSizes,
  reachRecords,
  withBuildsShare,
} from '../../src/capacity/design.ts'
import type { ConfigCapacity } from '../../src/capacity/model.ts'
import { ciExcess } from '../../src/capacity/topup.ts'
import { VIRNUCPRO_TARGETS } from '../../src/config/capacity-targets.ts'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import { analyzeOneConfiguration } from './support/analyze-one.ts'
import { v1Run } from './support/per-file-runs.ts'
import { LINEAR, plannedMeasurements, syntheticInput, syntheticMeasurement } from './support/synthetic-capacity.ts'

const PRODUCTION = DEFAULT_THRESHOLDS.perf01.productionSequences

/** LINEAR measured at `sizes` with `runs` each: its fitted figures and 6 M half-width. */
function fitted(sizes: number[], runs: number[], seed: string) {
  const random = createRandomSource(seed)
  const measured = plannedMeasurements(LINEAR, sizes.slice(0, 1), runs[0]!, random)
  measured[0]!.bySize.push(...sizes.slice(1).map((s, i) => syntheticMeasurement(LINEAR, s, runs[i + 1]!, random)))
  const { stats } = analyzeCapacity(
    measured,
    sizes.map((s) => syntheticInput(s, 1_000_000)),
    DEFAULT_THRESHOLDS,
  )
  return { figures: stats.configurations[0]!, halfWidth: ciExcess(stats, PRODUCTION)[0]!.halfWidth }
}

describe('largerSizes', () => {
  test('each a growth factor of the largest or the reach, capped at the input, larger than the largest, once each', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000_000 }),
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.option(fc.integer({ min: 1, max: 10_000_000 })),
        (largest, max, reach) => {
          const sizes = largerSizes(largest, max, reach)
          expect(new Set(sizes).size).toBe(sizes.length)
          expect(sizes).toEqual([...sizes].sort((a, b) => a - b))
          for (const r of sizes) {
            expect(r).toBeGreaterThan(largest)
            expect(r).toBeLessThanOrEqual(max)
            const made = [...GROWTH_FACTORS.map((f) => Math.round(f * largest)), ...(reach === null ? [] : [reach])]
            expect(made.includes(r) || r === max).toBe(true)
          }
        },
      ),
    )
  })
})

describe('the size the design reaches for', () => {
  test('the records whose run takes 4x the smallest run: ~33,000 for 60 s + 6.1 ms a sequence from 1,000 (66 s)', () => {
    const { figures } = fitted([1_000, 4_000], [3, 3], 'reach')
    const reach = reachRecords(figures)!
    expect(reach).toBeGreaterThan(30_000)
    expect(reach).toBeLessThan(37_000)
    // Two significant figures: a size a reader can name.
    expect(reach % 1_000).toBe(0)
  })

  test('a range short of it: the reach (capped at what the input holds), then the middle of a two-size range', () => {
    const view = fitted([1_000, 4_000], [3, 3], 'short')
    const sizes = (o: { maxRecords: number; known?: number[] }) =>
      bendCheckSizes(view, { held: 2, production: PRODUCTION, ...o }).map((c) => [c.kind, c.records, c.runs])
    expect(sizes({ maxRecords: Infinity })).toEqual([
      ['reach', reachRecords(view.figures), 2],
      ['third size', 2_000, 2],
    ])
    expect(sizes({ maxRecords: 20_000 })[0]).toEqual(['reach', 20_000, 2])
    expect(sizes({ maxRecords: 4_000 })).toEqual([['third size', 2_000, 2]])
    // Another configuration's size near the reach serves (the two are then compared as measured).
    expect(sizes({ maxRecords: Infinity, known: [1_000, 4_000, 30_000] })[0]).toEqual(['reach', 30_000, 2])
    const [reach, middle] = bendCheckSizes(view, { held: 2, production: PRODUCTION, maxRecords: Infinity })
    // The GPU-minutes count the GPUs held: two runs of ~264 s on a 2-GPU host, about 17.6.
    expect(reach!.gpuMinutes).toBeGreaterThan(15)
    expect(reach!.gpuMinutes).toBeLessThan(20)
    // Each with the CI it is expected to leave (the rule passes over one that would undo a CI on target).
    expect(reach!.halfWidth).toBeLessThan(view.halfWidth)
    expect(middle!.halfWidth).toBeLessThan(view.halfWidth)
  })

  test('a range that reaches it with three sizes already: nothing to add', () => {
    const view = fitted([1_000, 4_000, 33_000], [3, 3, 3], 'reached')
    expect(bendCheckSizes(view, { held: 1, production: PRODUCTION, maxRecords: Infinity })).toEqual([])
  })
})

describe('designCandidates', () => {
  test('a run more at each measured size and larger sizes of 2-4 runs, best first, with GPU-minutes and expected CI', () => {
    const view = fitted([1_000, 4_000], [3, 3], 'candidates')
    const c = designCandidates(view, { production: PRODUCTION, held: 1, maxRecords: 20_000 })
    expect(c.filter((x) => x.kind === 'repeat').map((x) => x.records)).toEqual(expect.arrayContaining([1_000, 4_000]))
    expect(c.filter((x) => x.kind === 'new size').map((x) => `${x.records}x${x.runs}`)).toEqual(
      expect.arrayContaining(['8000x2', '16000x4', '20000x3']),
    )
    for (let i = 1; i < c.length; i++) expect(c[i - 1]!.gainPerCost).toBeGreaterThanOrEqual(c[i]!.gainPerCost)
    const repeat = c.find((x) => x.kind === 'repeat' && x.records === 4_000)!
    expect(repeat.gpuMinutes * 60_000).toBeCloseTo(view.figures.sizes[1]!.medianWallMs, -2)
    for (const x of c) expect(x).toMatchObject({ label: '1 GPU', target: 0.03, halfWidthNow: view.halfWidth })
  })

  test("a view's own target (VirNucPro's +-5% on 1 GPU) is the one its candidates aim at, and the excess is over it", () => {
    const view = fitted([1_000, 4_000], [3, 3], 'candidates')
    const c = designCandidates(
      { ...view, target: VIRNUCPRO_TARGETS.ciHalfWidth(1) },
      { production: PRODUCTION, held: 1, maxRecords: 20_000 },
    )
    for (const x of c) expect(x.target).toBe(0.05)
    const { stats } = analyzeCapacity(
      plannedMeasurements(LINEAR, [1_000, 4_000], 3, createRandomSource('targets')),
      [1_000, 4_000].map((s) => syntheticInput(s, 1_000_000)),
      DEFAULT_THRESHOLDS,
    )
    const [reference] = ciExcess(stats, PRODUCTION)
    const [virnucpro] = ciExcess(stats, PRODUCTION, VIRNUCPRO_TARGETS.ciHalfWidth)
    expect(reference!.target).toBe(0.03)
    expect(virnucpro!.target).toBe(0.05)
    expect(virnucpro!.excess * 0.05).toBeCloseTo(reference!.excess * 0.03, 12)
  })
})

describe('bendCheck', () => {
  const withP = (figures: ConfigCapacity, pValue: number): ConfigCapacity => ({
    ...figures,
    support: { ...figures.support, lineFit: { f: 1, df1: 1, df2: 6, pValue, lowerSlope: 6, upperSlope: 6.2 } },
  })

  test('not settled (p < 0.3, or < 4 runs at a size): one run where it tells a bend from noise best; settled or no interior: none', () => {
    const view = fitted([1_000, 4_000, 33_000], [3, 3, 3], 'unsure')
    // With 3 runs a size, the middle's own variance counts whole, the ends' only by their weight in the chord.
    expect(
      bendCheck({ ...view, figures: withP(view.figures, 0.05) }, { held: 1, production: PRODUCTION }),
    ).toMatchObject({
      kind: 'bend check',
      records: 4_000,
      runs: 1,
    })
    // Many runs at the middle already: the near end's weight (29/32) makes it the better place.
    const middleFull = fitted([1_000, 4_000, 33_000], [3, 7, 3], 'unsure-full')
    expect(
      bendCheck({ ...middleFull, figures: withP(middleFull.figures, 0.05) }, { held: 1, production: PRODUCTION })
        ?.records,
    ).toBe(1_000)
    // A settled test: no doubt (p >= 0.3) with 4 runs at each size of the contrast; a bend found (p < 0.01).
    const settled = fitted([1_000, 4_000, 33_000], [4, 4, 4], 'settled')
    expect(
      bendCheck({ ...settled, figures: withP(settled.figures, 0.5) }, { held: 1, production: PRODUCTION }),
    ).toBeNull()
    expect(
      bendCheck({ ...settled, figures: withP(settled.figures, 0.001) }, { held: 1, production: PRODUCTION }),
    ).toBeNull()
    // "Not a line" on 3 runs a size is confirmed first; before the CI rule, only that case is taken.
    expect(bendCheck({ ...view, figures: withP(view.figures, 0.001) }, { held: 1, production: PRODUCTION })?.kind).toBe(
      'bend check',
    )
    const confirmOnly = { held: 1, production: PRODUCTION, confirmOnly: true }
    expect(bendCheck({ ...view, figures: withP(view.figures, 0.05) }, confirmOnly)).toBeNull()
    // The same p with 3 runs a size: too few to have seen a bend, one more where it tells most.
    expect(bendCheck({ ...view, figures: withP(view.figures, 0.5) }, { held: 1, production: PRODUCTION })?.kind).toBe(
      'bend check',
    )
    const two = fitted([1_000, 4_000], [3, 3], 'two')
    expect(bendCheck({ ...two, figures: withP(two.figures, 0.05) }, { held: 1, production: PRODUCTION })).toBeNull()
  })
})

describe('builds per file in the design', () => {
  test("a build's cost is one sample a run: where it holds most of the CI, a cheap run scores above a long one", () => {
    const random = createRandomSource('design-builds')
    // One file at either size, builds of 33 s +-4 s and the rest without noise: the 6 M CI is the builds' (959 more).
    const runs = [1_000, 3_750].flatMap((n) => [0, 1].map(() => v1Run(n, () => 33_000 + (random() - 0.5) * 8_000)))
    const c = analyzeOneConfiguration(runs).stats.configurations[0]!
    const share = buildsShare(c, PRODUCTION)
    expect(share).toBeGreaterThan(0.95)
    const view = { figures: c, halfWidth: 0.15, target: 0.05 }
    const repeats = designCandidates(view, { production: PRODUCTION, held: 1, maxRecords: 3_750 }).filter(
      (x) => x.kind === 'repeat',
    )
    const [small, large] = [1_000, 3_750].map((r) => repeats.find((x) => x.records === r)!)
    // Either run narrows the builds' part alike; the small one costs less.
    expect(small!.gainPerCost).toBeGreaterThan(large!.gainPerCost)
    // The line's rule alone (no builds share) sends the run to the far end, where the slope is read.
    expect(withBuildsShare(0.15, 0.15, share, 4, 1)).toBeCloseTo(0.15 * Math.sqrt(1 - share + (share * 4) / 5), 12)
    expect(withBuildsShare(0.15, 0.12, 0, 4, 1)).toBe(0.12)
  })
})
