import fc from 'fast-check'
import { describe, expect, test } from 'vitest'
import { withBuilds } from '../../src/capacity/builds.ts'
import { type FileCount, filesAt, partLine, partValue } from '../../src/capacity/parts.ts'
import type { CapacityRun } from '../../src/capacity/runs.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import { analyzeOneConfiguration } from './support/analyze-one.ts'
import { truthMs, v1Run } from './support/per-file-runs.ts'

const ESM2 = 'ESM-2 Feature Extraction'
const PRE = `pre: ${ESM2}`
const STEADY = `steady: ${ESM2}`
const BUILDS = `builds: ${ESM2}`
const HOUR_MS = 3_600_000
const SIX_M = 6_000_000

describe('builds per file as a part of their own', () => {
  test("each run's builds leave its `pre` part for a series of their own, ms a file; files counted as measured", () => {
    const runs = [v1Run(1_000, () => 33_000), v1Run(18_750, (f) => 30_000 + f * 1_000)]
    const { runs: out, fileCounts } = withBuilds(runs, [PRE, STEADY, ESM2])
    expect(out.map((r) => [r.values[PRE], r.values[BUILDS]])).toEqual([
      [3_000, 33_000],
      [3_000, 31_000],
    ])
    // The stage's own total is left as it was; only its parts move.
    expect(out[1]!.values[ESM2]).toBe(runs[1]!.values[ESM2])
    expect(runs[0]!.values[PRE]).toBe(36_000)
    const count = fileCounts[BUILDS]!
    expect(count).toMatchObject({ itemsPerSequence: 1.6, itemsPerFile: 10_000 })
    expect([...count.measured]).toEqual([
      [1_000, 1],
      [18_750, 3],
    ])
  })

  test('left as it was: no pre/steady split, an unknown or changing file size, or a `pre` that holds less than its builds', () => {
    const run = v1Run(4_000, () => 33_000)
    const none = (runs: CapacityRun[], series = [PRE, STEADY, ESM2]) =>
      expect(withBuilds(runs, series).fileCounts).toEqual({})
    none([run], [ESM2])
    none([{ ...run, files: { [ESM2]: { ...run.files![ESM2]!, itemsPerFile: null } } }])
    none([run, { ...run, files: { [ESM2]: { ...run.files![ESM2]!, itemsPerFile: 5_000 } } }])
    none([{ ...run, values: { ...run.values, [PRE]: 20_000 } }])
    none([{ ...run, files: undefined }])
  })

  test('a size counts its files as measured, else rounded up from its items; the line its steps run along', () => {
    const count: FileCount = { itemsPerSequence: 1.6, itemsPerFile: 10_000, measured: new Map([[1_000, 1]]) }
    expect([1_000, 6_250, 6_251, 18_750, SIX_M].map((n) => filesAt(count, n))).toEqual([1, 1, 2, 3, 960])
    const model = { fileCounts: { [BUILDS]: count } } as never
    const line = () => ({ fixed: 33_000, perUnit: 0 })
    expect(partValue(model, line, BUILDS, SIX_M)).toBe(960 * 33_000)
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 10_000_000 }), (n) => {
        const l = partLine(line, BUILDS, model)
        // Within half a build of the steps (files rounded up, on average half a file more than items / file size).
        expect(Math.abs(l.fixed + l.perUnit * n - partValue(model, line, BUILDS, n))).toBeLessThanOrEqual(
          33_000 / 2 + 1e-6,
        )
      }),
    )
  })

  test('one file at every measured size: 6 M projected with its 959 more builds, supported, its CI around the truth', () => {
    const random = createRandomSource('builds-known-answer')
    const noise = () => (random() - 0.5) * 2_000
    const build = () => 33_000 + (random() - 0.5) * 4_000
    const runs = [1_000, 3_750].flatMap((n) => [0, 1, 2].map(() => v1Run(n, build, noise())))
    const { stats, verdicts } = analyzeOneConfiguration(runs)
    const c = stats.configurations[0]!
    expect(c.support.problems).toEqual([])
    const at6m = c.at.find((a) => a.sequences === SIX_M)!.wallMs
    const truth = truthMs(SIX_M, 33_000)
    expect(at6m.ci!.low).toBeLessThan(truth)
    expect(at6m.ci!.high).toBeGreaterThan(truth)
    expect(Math.abs(at6m.estimate / truth - 1)).toBeLessThan(0.05)
    expect(c.parts.map((p) => p.name)).toContain(BUILDS)
    // 960 builds of 33 s and 6 M x 4 ms: 15.5 h, well over the 10-hour target, decided.
    expect(verdicts.find((v) => v.id === 'capacity/1/perf01/6000000')!.verdict).toBe('fail')
    // The measured sizes are reproduced exactly as measured: one build each.
    for (const r of c.support.reproduced) expect(r.within).toBe(true)
  })

  test('sizes of 1, 1 and 3 files: the steps counted, not a line through them (which read the builds 25% low)', () => {
    const random = createRandomSource('builds-steps')
    const runs = [1_000, 3_750, 18_750].flatMap((n) =>
      [0, 1, 2].map(() => v1Run(n, () => 33_000 + (random() - 0.5) * 1_000, (random() - 0.5) * 1_000)),
    )
    const { stats } = analyzeOneConfiguration(runs)
    const at6m = stats.configurations[0]!.at.find((a) => a.sequences === SIX_M)!.wallMs
    const truth = truthMs(SIX_M, 33_000)
    expect(Math.abs(at6m.estimate / truth - 1)).toBeLessThan(0.01)
    expect(at6m.ci!.low).toBeLessThan(truth)
    expect(at6m.ci!.high).toBeGreaterThan(truth)
    // The same runs with their builds read as start-up (no file count): the line through the steps projects low.
    const asStartUp = runs.map(({ files: _, ...r }) => r)
    const plain = analyzeOneConfiguration(asStartUp).stats.configurations[0]!.at.find((a) => a.sequences === SIX_M)!
    expect(plain.wallMs.estimate / truth - 1).toBeLessThan(-0.05)
    expect((truth - plain.wallMs.estimate) / HOUR_MS).toBeGreaterThan(0.5)
  })

  test("ESM-2's utilization as the input grows: the marginal busy share (builds idle), the busy line agreeing", () => {
    const random = createRandomSource('builds-util')
    // 80% busy through the work, idle through every build: 4 ms a sequence of work against 5.28 of builds.
    const runs = [1_000, 3_750].flatMap((n) =>
      [0, 1, 2].map(() => v1Run(n, () => 33_000 + (random() - 0.5) * 2_000, (random() - 0.5) * 400, 80)),
    )
    const stage = analyzeOneConfiguration(runs).stats.configurations[0]!.stages.find((s) => s.stage === ESM2)!
    const truthPct = (80 * 4) / (4 + (33_000 * 1.6) / 10_000)
    expect(stage.asymptoticUtilPct!.estimate).toBeCloseTo(truthPct, 0)
    const at6m = stage.utilAt.find((u) => u.sequences === SIX_M)!
    expect(at6m.utilPct!.estimate).toBeCloseTo(truthPct, 0)
    // The busy line agrees; the steady state (80% through each file's work) is named beside the share that holds.
    expect(at6m.disagreement).not.toMatch(/GPU-busy line reads/)
    expect(at6m.disagreement).toMatch(/^once at work the GPU is 80\.0% .* each added ms of the stage is 34\.\d% /)
  })
})
