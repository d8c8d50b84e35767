/**
 * The capacity design's rule proven on the CPU (issue 31): a synthetic target of known parts and noise
 * (support/synthetic-capacity.ts: VirNucPro's single-GPU path as an H100 showed it, 60 s of start-up and 6.1 ms a
 * sequence, run-to-run noise of a host slowdown), the user's own sample of 20,000 records, measured as the suite plans
 * (1,000 and 4,000 records, a warm-up and 2 runs each), then topped up to the 6 M target of +-3% (1 GPU) by the real
 * design (topUp, through the real analysis) or by repeats at the fixed sizes. Seeded: the figures below are this
 * file's, and CAPACITY_DESIGN_STUDY=1 prints them. The run cap is raised to 40 for every design alike, so that the
 * GPU-minutes to the target are compared, not who hits the cap first. The last case is a forecast for issue 31's GPU
 * part: VirNucPro's two arms on one 2-GPU host (every run counts twice), each twin calibrated on that host's runs.
 */
import { describe, expect, test } from 'vitest'
import { analyzeCapacity, type ConfigMeasurements, PLAIN_ANALYSIS } from '../../src/capacity/analyze.ts'
import { ciExcess, topUp } from '../../src/capacity/topup.ts'
import { REFERENCE_TARGETS, VIRNUCPRO_TARGETS } from '../../src/config/capacity-targets.ts'
import { DEFAULT_THRESHOLDS } from '../../src/config/thresholds.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import {
  CURVED,
  LINEAR,
  PER_FILE,
  plannedArms,
  plannedMeasurements,
  type SyntheticTarget,
  syntheticInput,
  syntheticMeasurement,
  trueWallMs,
  V2_TWO_GPUS,
} from './support/synthetic-capacity.ts'

/**
 * 20 seeds, the docs' figures. `npm run test:long` only (nightly; 116 s of CI's 25 minutes at 10 seeds): CI keeps the
 * decided rule's study on twins of VirNucPro (decide-study.test.ts), the design every capacity answer now runs.
 */
const SEEDS = 20
/** The analysis a look makes (without the answer's figures: the design reads none). */
const LOOK = { ...PLAIN_ANALYSIS, answerFigures: false }
const SAMPLE_RECORDS = 20_000
const MAX_RUNS = 40
const PRODUCTION = DEFAULT_THRESHOLDS.perf01.productionSequences
/** Where the rule's new sizes come from: nested subsets of the user's sample, up to all of it. */
const SAMPLE_SIZES = {
  resize: async (_base: unknown, records: number) => syntheticInput(records, SAMPLE_RECORDS),
  maxRecords: SAMPLE_RECORDS,
}
/** Room enough to see how far past issue 31's 60 GPU-minutes both arms of one 2-GPU host need. */
const HOST_BUDGET_GPU_MIN = 180

type Design = 'rule' | 'fixed sizes' | 'largest only'

interface Outcome {
  reached: boolean
  gpuMinutes: number
  sizes: number[]
  supported: boolean
  notALine: boolean
  estimateH: number
  ci: { low: number; high: number } | null
}

const gpuMinutesOf = (measured: readonly ConfigMeasurements[]) =>
  measured.flatMap((c) => c.bySize.flatMap((m) => m.observations)).reduce((a, o) => a + o.measured.run.wallMs, 0) /
  60_000

/** One seed of one design on `target`; `budget` GPU-minutes; the CI it aims at (default the reference pipeline's). */
async function study(
  target: SyntheticTarget,
  design: Design,
  seed: number,
  budget: number,
  ciTarget: (gpuCount: number) => number = REFERENCE_TARGETS.ciHalfWidth,
  planned: [number, number] = [1_000, 4_000],
): Promise<Outcome> {
  const random = createRandomSource(`capacity-design-study-${seed}`)
  const inputs = planned.map((r) => syntheticInput(r, SAMPLE_RECORDS))
  const measured = plannedMeasurements(target, planned, 2, random)
  const excess = () =>
    ciExcess(analyzeCapacity(measured, inputs, DEFAULT_THRESHOLDS, [], LOOK).stats, PRODUCTION, ciTarget)[0]!.excess
  if (design === 'largest only') {
    // Today's design before this one: another run at the largest size while the CI is too wide.
    for (let added = 0; excess() > 1 && added < MAX_RUNS && gpuMinutesOf(measured) < budget; added++) {
      const largest = measured[0]!.bySize[1]!
      const extra = syntheticMeasurement(target, planned[1], 1, random)
      measured[0]!.bySize[1] = { ...largest, observations: [...largest.observations, ...extra.observations] }
    }
  } else
    await topUp(measured, {
      inputs,
      thresholds: DEFAULT_THRESHOLDS,
      budgetGpuMinutes: budget,
      maxTopUps: MAX_RUNS,
      ciTarget,
      ...(design === 'rule'
        ? {
            sizes: SAMPLE_SIZES,
          }
        : {}),
      measure: async (_c, input, runs) => syntheticMeasurement(target, input.records, runs, random),
    })
  const { stats } = analyzeCapacity(measured, inputs, DEFAULT_THRESHOLDS, [], LOOK)
  const c = stats.configurations[0]!
  const at = c.at.find((a) => a.sequences === PRODUCTION)!.wallMs
  return {
    reached: excess() <= 1,
    gpuMinutes: gpuMinutesOf(measured),
    sizes: inputs.map((i) => i.records),
    supported: c.support.supported,
    notALine: (c.support.lineFit?.pValue ?? 1) < 0.01,
    estimateH: at.estimate / 3_600_000,
    ci: at.ci,
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const say = (what: unknown) => {
  if (process.env.CAPACITY_DESIGN_STUDY) console.log(JSON.stringify(what))
}

/** VirNucPro's two arms on one 2-GPU host, as issue 31 measures them: 1 GPU (v1, builds per file) and 2 GPUs (v2). */
const HOST_ARMS = [
  { label: '1 GPU', gpuCount: 1, target: PER_FILE },
  { label: '2 GPUs', gpuCount: 2, target: V2_TWO_GPUS },
]
/** GPUs the host holds while either arm runs: what each run's wall time counts for. */
const HOST_GPUS = Math.max(...HOST_ARMS.map((a) => a.gpuCount))

interface HostOutcome {
  /** GPU-minutes (every run x the host's 2 GPUs) when both arms' 6 M CIs were first on target; null: never. */
  onTargetAt: number | null
  /** The same for each arm alone. */
  armOnTargetAt: (number | null)[]
  gpuMinutes: number
  stop: string
  sizes: number[]
  /** Each arm's 6 M CI (h) and relative half-width, and whether its model supports a projection. */
  arms: { lowH: number; highH: number; halfWidth: number; supported: boolean }[]
}

/** One seed of the rule on both arms of one 2-GPU host, planned at 1,000 / 3,750 records, within `budget`. */
async function hostStudy(seed: number, budget: number): Promise<HostOutcome> {
  const random = createRandomSource(`capacity-host-study-${seed}`)
  const planned = [1_000, 3_750]
  const inputs = planned.map((r) => syntheticInput(r, SAMPLE_RECORDS))
  const measured = plannedArms(HOST_ARMS, planned, 2, random)
  const spent = () => HOST_GPUS * gpuMinutesOf(measured)
  let onTargetAt: number | null = null
  const armOnTargetAt: (number | null)[] = HOST_ARMS.map(() => null)
  // Where the design stands: when each arm, and both, were first on target.
  const look = () => {
    const { stats } = analyzeCapacity(measured, inputs, DEFAULT_THRESHOLDS, [], LOOK)
    const excess = ciExcess(stats, PRODUCTION, VIRNUCPRO_TARGETS.ciHalfWidth)
    for (const [i, e] of excess.entries()) if (armOnTargetAt[i] === null && e.excess <= 1) armOnTargetAt[i] = spent()
    if (onTargetAt === null && excess.every((e) => e.excess <= 1)) onTargetAt = spent()
    return { stats, excess }
  }
  const state = await topUp(measured, {
    inputs,
    thresholds: DEFAULT_THRESHOLDS,
    budgetGpuMinutes: budget,
    maxTopUps: MAX_RUNS,
    ciTarget: VIRNUCPRO_TARGETS.ciHalfWidth,
    sizes: SAMPLE_SIZES,
    measure: async (c, input, runs) => {
      // Called before each step's runs are merged: the state the previous step left.
      look()
      const arm = HOST_ARMS.find((a) => a.label === c.config.label)!
      return syntheticMeasurement(arm.target, input.records, runs, random)
    },
  })
  const { stats, excess } = look()
  return {
    onTargetAt,
    armOnTargetAt,
    gpuMinutes: spent(),
    stop: state.stop,
    sizes: inputs.map((i) => i.records),
    arms: stats.configurations.map((c, i) => {
      const at = c.at.find((a) => a.sequences === PRODUCTION)!.wallMs
      return {
        lowH: (at.ci?.low ?? Number.NaN) / 3_600_000,
        highH: (at.ci?.high ?? Number.NaN) / 3_600_000,
        halfWidth: excess[i]!.halfWidth,
        supported: c.support.supported,
      }
    }),
  }
}

describe(`the capacity design on a synthetic target, ${SEEDS} seeds`, () => {
  test('a line: the rule reaches +-3% at 6 M in fewer GPU-minutes than repeats at fixed sizes, over >= 3 sizes', async () => {
    const by: Record<Design, Outcome[]> = { rule: [], 'fixed sizes': [], 'largest only': [] }
    for (let seed = 0; seed < SEEDS; seed++)
      for (const design of Object.keys(by) as Design[]) by[design].push(await study(LINEAR, design, seed, 120))
    // Unreached within 40 runs or 120 GPU-minutes: counted as never (Infinity), not as what it spent.
    const toTarget = (o: Outcome) => (o.reached ? o.gpuMinutes : Number.POSITIVE_INFINITY)
    const summary = Object.fromEntries(
      Object.entries(by).map(([d, os]) => [
        d,
        { reached: os.filter((o) => o.reached).length, medianGpuMinutes: median(os.map(toTarget)) },
      ]),
    )
    say({ linear: summary, rule: by.rule.map((o) => [o.gpuMinutes.toFixed(1), o.sizes.join('/')]) })
    const rule = by.rule
    // Seeded figures: rule 20/20 reached, median 34.2 GPU-minutes (all over 1,000 / 4,000 / 20,000 records); fixed
    // sizes (the same rule, runs at 1,000 and 4,000 only) 2/20 within 40 runs, median never; largest only 0/20.
    expect(rule.filter((o) => o.reached).length).toBeGreaterThanOrEqual(SEEDS * 0.9)
    for (const design of ['fixed sizes', 'largest only'] as const) {
      expect(summary.rule!.medianGpuMinutes).toBeLessThan(summary[design]!.medianGpuMinutes)
      const wins = rule.filter((o, s) => toTarget(o) < toTarget(by[design][s]!)).length
      expect(wins, design).toBeGreaterThanOrEqual(SEEDS * 0.75)
    }
    // Three sizes or more in every seed, and the line's projection where the truth is (10.18 h).
    for (const o of rule) expect(o.sizes.length).toBeGreaterThanOrEqual(3)
    const truthH = trueWallMs(LINEAR, PRODUCTION) / 3_600_000
    const covered = rule.filter((o) => o.ci && o.ci.low / 3_600_000 <= truthH && truthH <= o.ci.high / 3_600_000)
    expect(covered.length).toBeGreaterThanOrEqual(SEEDS * 0.85)
    // A line is seldom called bent (the lack-of-fit test at 1%, read after each step).
    expect(rule.filter((o) => o.notALine).length).toBeLessThanOrEqual(SEEDS * 0.1)
  }, 600_000)

  test('a per-sequence cost that grows as VirNucPro\'s did: caught as "not a line", never projected low on target', async () => {
    const outcomes: Outcome[] = []
    for (let seed = 0; seed < SEEDS; seed++) outcomes.push(await study(CURVED, 'rule', seed, 60))
    const truthH = trueWallMs(CURVED, PRODUCTION) / 3_600_000
    say({ curved: outcomes.map((o) => [o.notALine, o.supported, o.estimateH.toFixed(2), o.sizes.join('/')]), truthH })
    // The truth at 6 M is 18.3 h; a line through 1,000-20,000 records says about 11.8 h. Seeded figures: the lack of
    // fit found in 20 of 20 seeds, none left supported.
    expect(outcomes.filter((o) => o.notALine).length).toBeGreaterThanOrEqual(SEEDS * 0.85)
    for (const o of outcomes) {
      expect(o.sizes.length).toBeGreaterThanOrEqual(3)
      // Either the model says it cannot support the projection, or its CI reaches the truth: never a decided answer
      // that is low.
      if (o.supported) expect((o.ci?.high ?? 0) / 3_600_000).toBeGreaterThanOrEqual(truthH)
    }
  }, 600_000)

  test('a model built per file (VirNucPro v1): the rule reaches +-5% at 6 M, its CI around the truth, builds counted', async () => {
    const by: Record<Design, Outcome[]> = { rule: [], 'fixed sizes': [], 'largest only': [] }
    for (let seed = 0; seed < SEEDS; seed++)
      for (const design of Object.keys(by) as Design[])
        by[design].push(await study(PER_FILE, design, seed, 60, VIRNUCPRO_TARGETS.ciHalfWidth, [1_000, 3_750]))
    const toTarget = (o: Outcome) => (o.reached ? o.gpuMinutes : Number.POSITIVE_INFINITY)
    const truthH = trueWallMs(PER_FILE, PRODUCTION) / 3_600_000
    const summary = Object.fromEntries(
      Object.entries(by).map(([d, os]) => [
        d,
        {
          reached: os.filter((o) => o.reached).length,
          medianGpuMinutes: median(os.map(toTarget)),
          covered: os.filter((o) => o.ci && o.ci.low / 3_600_000 <= truthH && truthH <= o.ci.high / 3_600_000).length,
        },
      ]),
    )
    say({
      perFile: summary,
      truthH,
      rule: by.rule.map((o) => [o.gpuMinutes.toFixed(1), o.estimateH.toFixed(2), o.sizes.join('/')]),
    })
    // Seeded figures: the rule 20/20 within the 60 GPU-minutes, median 42.3 (its CI on target after the reach to about
    // 14,000 records, about 17 GPU-minutes in; the rest settles the lack-of-fit test, 4 runs at each of three sizes),
    // 19/20 CIs around the 28.8 h truth. Repeats at the two planned sizes reach +-5% sooner (11.9) but over two sizes,
    // where no bend could show; the largest size alone 14/20.
    const rule = by.rule
    expect(rule.filter((o) => o.reached && o.gpuMinutes <= 60).length).toBeGreaterThanOrEqual(SEEDS * 0.9)
    expect(summary.rule!.covered).toBeGreaterThanOrEqual(SEEDS * 0.85)
    for (const o of rule) {
      expect(o.sizes.length).toBeGreaterThanOrEqual(3)
      expect(o.supported).toBe(true)
      // The builds counted: a model that held one would project about 20 h.
      expect(Math.abs(o.estimateH / truthH - 1)).toBeLessThan(0.05)
    }
  }, 600_000)

  test("VirNucPro's two arms on one 2-GPU host: how far the rule gets toward +-5% (1 GPU) and +-8% (2 GPUs)", async () => {
    const outcomes: HostOutcome[] = []
    for (let seed = 0; seed < SEEDS; seed++) outcomes.push(await hostStudy(seed, HOST_BUDGET_GPU_MIN))
    const truthH = HOST_ARMS.map((a) => trueWallMs(a.target, PRODUCTION) / 3_600_000)
    const covered = HOST_ARMS.map(
      (_, i) => outcomes.filter((o) => o.arms[i]!.lowH <= truthH[i]! && truthH[i]! <= o.arms[i]!.highH).length,
    )
    const within = (m: number | null) => m !== null && m <= VIRNUCPRO_TARGETS.budgetGpuMinutes
    say({
      host: {
        bothOnTarget: outcomes.filter((o) => o.onTargetAt !== null).length,
        bothWithin60: outcomes.filter((o) => within(o.onTargetAt)).length,
        armsOnTarget: HOST_ARMS.map((_, i) => outcomes.filter((o) => o.armOnTargetAt[i] !== null).length),
        armsWithin60: HOST_ARMS.map((_, i) => outcomes.filter((o) => within(o.armOnTargetAt[i] ?? null)).length),
        armsMedianOnTargetAt: HOST_ARMS.map((_, i) =>
          median(outcomes.map((o) => o.armOnTargetAt[i] ?? Number.POSITIVE_INFINITY)),
        ),
        finalHalfWidths: HOST_ARMS.map((_, i) => median(outcomes.map((o) => o.arms[i]!.halfWidth))),
        covered,
      },
      truthH,
      seeds: outcomes.map((o) => [
        o.armOnTargetAt.map((m) => m?.toFixed(1) ?? '-').join('/'),
        o.arms.map((a) => `${(a.halfWidth * 100).toFixed(1)}%${a.supported ? '' : '?'}`).join('/'),
        o.gpuMinutes.toFixed(1),
        o.stop,
        o.sizes.join('/'),
      ]),
    })
    // Seeded figures (docs/VALIDATION.md, "Real VirNucPro"): the 1-GPU arm on target in 20/20 seeds, 10 of them within
    // 60 GPU-minutes; the 2-GPU arm in 0/20 within 180, ending at +-11-30% (median +-16%); at half its spread, both
    // arms in 12/20 within 180 and 1/20 within 60. Asserted is what holds of the rule whatever the spread: the budget
    // is a cap, every arm's CI stays around its truth, and the 1-GPU arm gets to its target.
    for (const o of outcomes) expect(o.gpuMinutes).toBeLessThanOrEqual(HOST_BUDGET_GPU_MIN)
    for (const c of covered) expect(c).toBeGreaterThanOrEqual(SEEDS * 0.85)
    expect(outcomes.filter((o) => o.armOnTargetAt[0] !== null).length).toBeGreaterThanOrEqual(SEEDS * 0.9)
  }, 600_000)
})
