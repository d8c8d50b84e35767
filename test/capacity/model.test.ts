import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import type { CapacityRun } from '../../src/capacity/runs.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import { analyzeOneConfiguration } from './support/analyze-one.ts'

const ESM2 = 'ESM-2 Feature Extraction'
const DNABERT = 'DNABERT-S Feature Extraction'

/** A run from its parts (ms); the wall time is their sum; startup/work split ESM-2 where both are given. */
function run(size: number, parts: Record<string, number>, busyMs?: number): CapacityRun {
  const values: Record<string, number> = { ...parts }
  const split = values[`startup: ${ESM2}`] !== undefined && values[`work: ${ESM2}`] !== undefined
  if (split) values[ESM2] = values[`startup: ${ESM2}`]! + values[`work: ${ESM2}`]!
  if (busyMs !== undefined) values[`busy: ${ESM2}`] = busyMs
  const inside = Object.entries(values)
    .filter(([k]) => !k.includes(': ') && k !== 'outside stages')
    .reduce((a, [, v]) => a + v, 0)
  values.wall = inside + (values['outside stages'] ?? 0)
  return { label: `${size}`, size, values, startup: {}, steady: {} }
}

const analyze = analyzeOneConfiguration

describe('capacity model: never impossible', () => {
  // Issue 24, case 1: the real VirNucPro's ESM-2 stage works through the whole input before its first GPU batch. Split
  // at the GPU's first work, its pre-GPU part grew 28.5 ms/sequence and its work part got -24.8 ms/sequence; the old
  // model held the growing part constant (its effect was measured against a negative projection) and projected 6 M
  // sequences at -32.3 h, PASS.
  test('case 1 (a start-up that grows with the input, split at the wrong place): no negative time, no pass', () => {
    const noise = [0, 250, -250]
    const runs = [200, 1_000].flatMap((n) =>
      noise.map((e) =>
        run(n, {
          'outside stages': 5_000 + e,
          'Six-Frame Translation': 0.2 * n,
          [DNABERT]: 2_000 + 2 * n + e,
          [`startup: ${ESM2}`]: 3_000 + 28.5 * n + e,
          [`work: ${ESM2}`]: 30_000 - 24.8 * n + e,
        }),
      ),
    )
    const { stats, verdicts } = analyze(runs)
    const c = stats.configurations[0]!
    for (const a of c.at) expect(a.wallMs.estimate).toBeGreaterThan(0)
    for (const p of c.parts) expect(p.msPerSequence.estimate).toBeGreaterThanOrEqual(0)
    const at6m = verdicts.find((v) => v.id === 'capacity/1/perf01/6000000')!
    expect(at6m.value!).toBeGreaterThan(0)
    expect(at6m.verdict).toBe('inconclusive')
    expect(at6m.detail).toMatch(/parts disagree with the runs/)
    expect(c.support.nextRecords).toBeGreaterThan(1_000)
  })

  test('a per-sequence cost lost in start-up noise is inconclusive, naming the size to measure next', () => {
    const noise = [0, 1_500, -1_500, 700]
    const runs = [100, 200].flatMap((n) =>
      noise.map((e) => run(n, { 'outside stages': 20_000, [DNABERT]: 1_500 + 0.5 * n + e })),
    )
    const { stats, verdicts } = analyze(runs)
    const c = stats.configurations[0]!
    expect(c.support.supported).toBe(false)
    expect(c.support.problems.join()).toMatch(/lost in start-up noise/)
    expect(c.support.nextRecords).toBeGreaterThanOrEqual(400)
    for (const v of verdicts.filter((v) => /perf01\/\d+$/.test(v.id))) expect(v.verdict).toBe('inconclusive')
    expect(verdicts.find((v) => v.id === 'capacity/1/perf01/measured')!.verdict).toBe('pass')
  })

  test('skewed runs still reproduce their size: the model meets the CI of their median, not only the median', () => {
    // A CI run on the CPU: walls of 2.68, 2.68 and 2.87 s against a model of 2.90 s [2.73, 3.05] read as "the parts
    // disagree with the runs", where the start-up part held constant had drawn one slow run at each size. Here the
    // means of both sizes are the same (a constant fits them exactly) and the medians sit off them by the runs' skew;
    // with 12 runs a size the model's CI is narrower than that skew (with 6 it was not yet), and more runs would
    // narrow it further: the old rule failed the likelier, the more was measured.
    const times = (n: number, ms: number) => Array.from({ length: n }, () => ms)
    const outside = {
      100: [...times(8, 2_000), ...times(4, 2_900)],
      400: [...times(8, 2_600), ...times(4, 1_700)],
    }
    const runs = ([100, 400] as const).flatMap((n) =>
      outside[n].map((o) => run(n, { 'outside stages': o, [DNABERT]: 1_000 + 10 * n })),
    )
    const c = analyze(runs).stats.configurations[0]!
    expect(c.constantParts).toEqual([expect.objectContaining({ name: 'outside stages', heldConstant: true })])
    // The old rule (each median inside the model's CI) fails on both sizes...
    for (const r of c.support.reproduced)
      expect(r.medianMs < r.modelMs.ci!.low || r.medianMs > r.modelMs.ci!.high).toBe(true)
    // ...while the runs' own CIs (order statistic: 3rd and 10th of 12) meet the model's.
    expect(c.support.reproduced.map((r) => r.medianCi)).toEqual([
      { low: 4_000, high: 4_900 },
      { low: 6_700, high: 7_600 },
    ])
    expect(c.support.reproduced.every((r) => r.within)).toBe(true)
    expect(c.support.problems).toEqual([])
  })

  test('invariants hold for any runs: no negative part, utilization within 0-100%, no projection below a measured smaller size unless said unsupported, never pass or fail unsupported', () => {
    const part = fc.record({
      fixedMs: fc.double({ min: 0, max: 20_000, noNaN: true }),
      msPerSeq: fc.double({ min: -5, max: 10, noNaN: true }),
    })
    fc.assert(
      fc.property(
        fc.array(part, { minLength: 1, maxLength: 4 }),
        fc.tuple(fc.integer({ min: 50, max: 2_000 }), fc.integer({ min: 2, max: 20 })),
        fc.integer({ min: 2, max: 4 }),
        fc.double({ min: 0, max: 0.3, noNaN: true }),
        fc.integer(),
        (parts, [small, factor], runsPerSize, noiseRel, seed) => {
          const uniform = createRandomSource(`invariants-${seed}`)
          const rnd = () => uniform() - 0.5
          const runs = [small, small * factor].flatMap((n) =>
            Array.from({ length: runsPerSize }, () => {
              const values: Record<string, number> = {}
              parts.forEach((p, i) => {
                values[`stage ${i}`] = Math.max(0, (p.fixedMs + p.msPerSeq * n) * (1 + noiseRel * rnd()))
              })
              const esm = Math.max(1, 1_000 + 3 * n * (1 + noiseRel * rnd()))
              values[ESM2] = esm
              return run(n, { 'outside stages': 4_000 * (1 + noiseRel * rnd()), ...values }, esm * (0.5 + rnd()))
            }),
          )
          const { stats, verdicts } = analyze(runs)
          const c = stats.configurations[0]
          if (!c) return
          for (const p of [...c.parts, c.wall])
            for (const e of [p.fixedMs, p.msPerSequence]) {
              expect(e.estimate).toBeGreaterThanOrEqual(0)
              if (e.ci) expect(e.ci.low).toBeGreaterThanOrEqual(0)
            }
          for (const s of c.stages)
            for (const u of s.utilAt) {
              // No figure only where the busy line leaves 0-100% without a steady state, and then it says so.
              if (u.utilPct === null) {
                expect(u.disagreement).toMatch(/outside 0-100%: the busy time and the stage times disagree/)
                continue
              }
              expect(u.utilPct.estimate).toBeGreaterThanOrEqual(0)
              expect(u.utilPct.estimate).toBeLessThanOrEqual(100)
              if (u.utilPct.ci)
                expect([u.utilPct.ci.low, u.utilPct.ci.high].every((x) => x >= 0 && x <= 100)).toBe(true)
            }
          const largest = c.sizes.at(-1)!
          for (const a of c.at.filter((a) => a.sequences > largest.sequences))
            if (c.support.supported) expect(a.wallMs.estimate).toBeGreaterThanOrEqual(largest.medianWallMs * 0.999)
          // Unsupported runs decide nothing; where the one problem is the per-sequence cost's width (precisionOnly)
          // a decision is read from the interval, which must then lie wholly past its threshold.
          if (!c.support.supported)
            for (const v of verdicts.filter((v) => /^capacity\/1\/perf0[12]\/.*\d$/.test(v.id))) {
              if (!c.support.precisionOnly) expect(v.verdict).toBe('inconclusive')
              else if (v.verdict === 'fail' && v.unit === 'h') expect(v.ci!.low).toBeGreaterThan(10)
              else if (v.verdict === 'pass' && v.unit === 'h') expect(v.ci!.high).toBeLessThanOrEqual(10)
            }
        },
      ),
      { numRuns: 25 },
    )
  })
})
