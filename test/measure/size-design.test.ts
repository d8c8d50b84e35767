import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { MeasureInputError } from '../../src/measure/errors.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import {
  type DesignSize,
  designDegrees,
  expectedHalfWidth,
  predictionVariance,
  scoreCandidates,
} from '../../src/measure/size-design.ts'
import { fitWeightedLine } from '../../src/measure/size-model.ts'
import { standardNormal } from './support/simulate.ts'

const X0 = 6_000_000
const design = fc
  .uniqueArray(fc.integer({ min: 1, max: 100_000 }), { minLength: 2, maxLength: 5 })
  .chain((sizes) =>
    fc.tuple(
      fc.constant(sizes),
      fc.array(fc.integer({ min: 1, max: 8 }), { minLength: sizes.length, maxLength: sizes.length }),
      fc.array(fc.double({ min: 0.01, max: 100, noNaN: true }), { minLength: sizes.length, maxLength: sizes.length }),
    ),
  )
  .map(([sizes, runs, variances]) =>
    sizes.map((size, i): DesignSize => ({ size, runs: runs[i]!, runVariance: variances[i]! })),
  )

describe('predictionVariance', () => {
  test('two sizes: the line through their means, whatever the weights', () => {
    fc.assert(
      fc.property(design, fc.integer({ min: 100_001, max: 10_000_000 }), (d, x0) => {
        const [a, b] = d.slice(0, 2) as [DesignSize, DesignSize]
        // value at x0 = ȳa (x0 - xb)/(xa - xb) + ȳb (x0 - xa)/(xb - xa)
        const la = (x0 - b.size) / (a.size - b.size)
        const lb = (x0 - a.size) / (b.size - a.size)
        const closed = (la ** 2 * a.runVariance) / a.runs + (lb ** 2 * b.runVariance) / b.runs
        expect(predictionVariance([a, b], x0)).toBeCloseTo(closed, 6 - Math.ceil(Math.log10(closed + 1)))
      }),
    )
  })

  test("is the variance of the size model's estimator: least squares over all runs, simulated", () => {
    const d: DesignSize[] = [
      { size: 1_000, runs: 3, runVariance: 1.2 ** 2 },
      { size: 4_000, runs: 2, runVariance: 1.5 ** 2 },
      { size: 16_000, runs: 4, runVariance: 3.1 ** 2 },
    ]
    const random = createRandomSource('ols')
    const trials = 20_000
    let sum = 0
    let sumSq = 0
    for (let t = 0; t < trials; t++) {
      const means = d.map((s) => {
        let total = 0
        for (let r = 0; r < s.runs; r++) total += Math.sqrt(s.runVariance) * standardNormal(random)
        return total / s.runs
      })
      const line = fitWeightedLine(
        d.map((s) => s.size),
        means,
        d.map((s) => s.runs),
      )
      const v = line.fixed + line.perUnit * X0
      sum += v
      sumSq += v * v
    }
    const simulated = sumSq / trials - (sum / trials) ** 2
    // 20,000 trials: the sample variance is within 3% of the truth (its sd is ~1%).
    expect(simulated / predictionVariance(d, X0)).toBeGreaterThan(0.97)
    expect(simulated / predictionVariance(d, X0)).toBeLessThan(1.03)
  })

  test('with noise alike at every size, another run never makes the projection worse', () => {
    fc.assert(
      fc.property(design, fc.nat({ max: 4 }), (d, pick) => {
        const alike = d.map((s) => ({ ...s, runVariance: 1 }))
        const at = alike[pick % alike.length]!
        const more = [...alike, { ...at, runs: 1 }]
        expect(predictionVariance(more, X0)).toBeLessThanOrEqual(predictionVariance(alike, X0) * (1 + 1e-9))
      }),
    )
  })

  test('refuses one size, a size that is not > 0, runs that are not whole, a negative variance', () => {
    expect(() => predictionVariance([{ size: 1, runs: 2, runVariance: 1 }], X0)).toThrow(MeasureInputError)
    for (const bad of [
      { size: 0, runs: 2, runVariance: 1 },
      { size: 5, runs: 1.5, runVariance: 1 },
      { size: 5, runs: 2, runVariance: -1 },
    ])
      expect(() => predictionVariance([{ size: 1, runs: 2, runVariance: 1 }, bad], X0)).toThrow(/design: size 1/)
  })
})

describe('designDegrees', () => {
  test('between the fewest runs at a size - 1 and all runs - sizes; 0 with one run at a size', () => {
    fc.assert(
      fc.property(design, (d) => {
        const nu = designDegrees(d)
        const fewest = Math.min(...d.map((s) => s.runs)) - 1
        if (fewest < 1) expect(nu).toBe(0)
        else {
          expect(nu).toBeGreaterThanOrEqual(fewest)
          expect(nu).toBeLessThanOrEqual(d.reduce((a, s) => a + s.runs - 1, 0))
        }
      }),
    )
  })

  test('noise alike and runs alike: all runs - sizes', () => {
    expect(designDegrees([1, 2, 3].map((size) => ({ size, runs: 4, runVariance: 2 })))).toBeCloseTo(9, 9)
  })
})

describe('expectedHalfWidth', () => {
  test("scales the half-width now: the noise's level cancels, only its shape over sizes counts", () => {
    fc.assert(
      fc.property(design, fc.double({ min: 1e-3, max: 1e3, noNaN: true }), (d, k) => {
        const next = [...d, { ...d[0]!, runs: 2 }]
        const scaled = (x: DesignSize[]) => x.map((s) => ({ ...s, runVariance: s.runVariance * k }))
        const a = expectedHalfWidth({ halfWidth: 0.1, current: d, next, x0: X0 })
        const b = expectedHalfWidth({ halfWidth: 0.1, current: scaled(d), next: scaled(next), x0: X0 })
        if (Number.isFinite(a)) expect(b).toBeCloseTo(a, 9)
        else expect(b).toBe(a)
      }),
    )
  })

  test('the same design: the same half-width; more runs at the ends: narrower (t and variance both)', () => {
    const d: DesignSize[] = [
      { size: 1_000, runs: 2, runVariance: 1 },
      { size: 4_000, runs: 2, runVariance: 1.7 },
    ]
    expect(expectedHalfWidth({ halfWidth: 0.2, current: d, next: d, x0: X0 })).toBeCloseTo(0.2, 12)
    const more = [...d, { size: 4_000, runs: 1, runVariance: 1.7 }, { size: 1_000, runs: 1, runVariance: 1 }]
    expect(expectedHalfWidth({ halfWidth: 0.2, current: d, next: more, x0: X0 })).toBeLessThan(0.2 / 1.5)
    expect(expectedHalfWidth({ halfWidth: 0.2, current: [{ ...d[0]!, runs: 1 }, d[1]!], next: d, x0: X0 })).toBe(
      Number.POSITIVE_INFINITY,
    )
  })
})

/**
 * The cheapest two-point design (whole runs at each end) whose projection variance at X0 is at most `target`, over
 * larger ends `x2s`: runs cost their expected time T(x) = F + b x. Brute force: no formula of ours in the loop.
 */
function cheapestDesign(o: {
  fixedMs: number
  msPerSequence: number
  x1: number
  x2s: readonly number[]
  sd: (runMs: number) => number
  target: number
}) {
  const t = (x: number) => o.fixedMs + o.msPerSequence * x
  let best = { costMs: Infinity, x2: 0, n1: 0, n2: 0 }
  for (const x2 of o.x2s)
    for (let n1 = 2; n1 <= 60; n1++)
      for (let n2 = 2; n2 <= 120; n2++) {
        const costMs = n1 * t(o.x1) + n2 * t(x2)
        if (costMs >= best.costMs) break
        const v = predictionVariance(
          [
            { size: o.x1, runs: n1, runVariance: o.sd(t(o.x1)) ** 2 },
            { size: x2, runs: n2, runVariance: o.sd(t(x2)) ** 2 },
          ],
          X0,
        )
        if (v <= o.target) {
          best = { costMs, x2, n1, n2 }
          break
        }
      }
  return { ...best, runMs: t(best.x2), smallestMs: t(o.x1) }
}

describe('how large the largest size (the derivation in src/measure/size-design.ts, checked by brute force)', () => {
  const F = 60_000
  const b = 6.1
  const x2s = Array.from({ length: 60 }, (_, i) => Math.round(200 * 1.1 ** (i + 10)))
  // Precision asked: +-1% of the 6 M projection (about 36,660 s), as a variance at 1.96 sd.
  const target = ((0.01 * (F + b * X0)) / 1.96) ** 2

  test('noise proportional to run time, smallest run nearly all start-up: the largest run costs about 4 F', () => {
    const best = cheapestDesign({ fixedMs: F, msPerSequence: b, x1: 100, x2s, sd: (ms) => 0.02 * ms, target })
    // 1.1x steps of size and whole runs: within 15% of 4 x the smallest run (60.6 s), twice the runs at the large end.
    expect(best.runMs / best.smallestMs).toBeGreaterThan(4 * 0.85)
    expect(best.runMs / best.smallestMs).toBeLessThan(4 * 1.15)
    expect(best.n2 / best.n1).toBeGreaterThan(1.5)
    expect(best.n2 / best.n1).toBeLessThan(2.6)
  })

  test('a smallest run that is not all start-up: 4 x that run, not 4 F', () => {
    // x1 = 10,000: T1 = 121 s = 2 F; the optimum is near 4 T1 = 484 s, twice 4 F.
    const best = cheapestDesign({ fixedMs: F, msPerSequence: b, x1: 10_000, x2s, sd: (ms) => 0.02 * ms, target })
    expect(best.runMs / best.smallestMs).toBeGreaterThan(4 * 0.85)
    expect(best.runMs / best.smallestMs).toBeLessThan(4 * 1.15)
    expect(best.runMs / F).toBeGreaterThan(6)
  })

  test('constant noise: no optimum inside the range, the largest size offered is the cheapest', () => {
    const best = cheapestDesign({ fixedMs: F, msPerSequence: b, x1: 100, x2s, sd: () => 1_200, target: target / 30 })
    expect(best.x2).toBe(x2s.at(-1))
  })
})

describe('scoreCandidates', () => {
  const d: DesignSize[] = [
    { size: 1_000, runs: 2, runVariance: 1 },
    { size: 4_000, runs: 2, runVariance: 1.7 },
  ]
  const candidates = [
    { kind: 'repeat', size: 4_000, runs: 1, runVariance: 1.7, cost: 1.4 },
    { kind: 'new size', size: 16_000, runs: 3, runVariance: 6, cost: 8 },
    { kind: 'repeat smallest', size: 1_000, runs: 1, runVariance: 1, cost: 1.1 },
  ]

  test('best first by gain per cost; the gain is the way to the target, no further', () => {
    const scored = scoreCandidates({ halfWidth: 0.2, target: 0.03, design: d, x0: X0, candidates })
    for (let i = 1; i < scored.length; i++)
      expect(scored[i - 1]!.gainPerCost).toBeGreaterThanOrEqual(scored[i]!.gainPerCost)
    for (const s of scored) {
      expect(s.gain).toBeCloseTo((0.2 - Math.max(s.halfWidth, 0.03)) / 0.03, 9)
      expect(s.gainPerCost).toBeCloseTo(s.gain / s.cost, 12)
    }
    // Already on target: no candidate gains anything.
    const done = scoreCandidates({ halfWidth: 0.02, target: 0.03, design: d, x0: X0, candidates })
    for (const s of done) expect(s.gain).toBe(0)
  })

  test("a caller's adjustment of the expected half-width is what the gain and the order are read from", () => {
    const plain = scoreCandidates({ halfWidth: 0.2, target: 0.03, design: d, x0: X0, candidates })
    // Noise the line's rule does not model, narrowed by any run alike: the cheapest run gains the most per cost.
    const floor = 0.15
    const adjusted = scoreCandidates({
      halfWidth: 0.2,
      target: 0.03,
      design: d,
      x0: X0,
      candidates,
      adjust: (line, c) => Math.hypot(line, floor / Math.sqrt(1 + c.runs)),
    })
    for (const s of adjusted) {
      const line = plain.find((p) => p.kind === s.kind)!.halfWidth
      expect(s.halfWidth).toBeCloseTo(Math.hypot(line, floor / Math.sqrt(1 + s.runs)), 12)
      expect(s.gain).toBeCloseTo((0.2 - Math.max(s.halfWidth, 0.03)) / 0.03, 9)
    }
    for (let i = 1; i < adjusted.length; i++)
      expect(adjusted[i - 1]!.gainPerCost).toBeGreaterThanOrEqual(adjusted[i]!.gainPerCost)
  })

  test('a CI that does not exist yet gives no gain to scale from; bad costs and targets are refused', () => {
    const none = scoreCandidates({ halfWidth: Infinity, target: 0.03, design: d, x0: X0, candidates })
    for (const s of none) expect(s.gain).toBe(0)
    expect(() =>
      scoreCandidates({ halfWidth: 0.1, target: 0, design: d, x0: X0, candidates: [candidates[0]!] }),
    ).toThrow(/target must be > 0/)
    expect(() =>
      scoreCandidates({
        halfWidth: 0.1,
        target: 0.03,
        design: d,
        x0: X0,
        candidates: [{ ...candidates[0]!, cost: 0 }],
      }),
    ).toThrow(/candidate repeat at 4000: cost 0/)
  })
})
