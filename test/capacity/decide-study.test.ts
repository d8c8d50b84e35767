/**
 * The decided rule proven on the CPU (issue 36): twins of the 2026-11-27 runs of the unmodified VirNucPro on one 2-GPU
 * host (support/synthetic-capacity.ts: the 1-GPU v1 path with its builds per file, 28.8 h at 6 M, and the 2-GPU v2
 * path, 34.7 h, 17% run-to-run spread), measured as the suite plans (1,000 / 3,750 records, a warm-up and 2 runs an
 * arm), then the real design (topUp through the real analysis) within 60 GPU-minutes of a 2-GPU host, 20 seeds:
 * - far: the 1-GPU arm at the default thresholds (10 h): 45 K far under, 6 M far over; against the width rule of
 *   issues 24 and 31 (the same runs planned, then runs until the 6 M CI is +-5%);
 * - near: the same arm with the time limit 3% under its 6 M truth (its right answers: FAIL or at threshold);
 * - both arms of the host: what 60 GPU-minutes decide, and that what they cannot says what it would need.
 * A decided verdict is wrong where it passes a truth over its threshold, fails one under it, or reads at threshold
 * where the truth is outside the zone. CAPACITY_DESIGN_STUDY=1 prints the figures.
 */
import { describe, expect, test } from 'vitest'
import { analysisOptions } from '../../src/capacity/analysis-options.ts'
import { analyzeCapacity, type ConfigMeasurements } from '../../src/capacity/analyze.ts'
import type { Decision } from '../../src/capacity/decisions.ts'
import { topUp } from '../../src/capacity/topup.ts'
import { type CapacityStopRule, DECISION, VIRNUCPRO_TARGETS } from '../../src/config/capacity-targets.ts'
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../src/config/thresholds.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import {
  PER_FILE,
  plannedArms,
  syntheticInput,
  syntheticMeasurement,
  trueWallMs,
  V2_TWO_GPUS,
} from './support/synthetic-capacity.ts'

const SEEDS = 20
const SAMPLE = 20_000
const BUDGET_GPU_MIN = 60
const HOST = [
  { label: '1 GPU', gpuCount: 1, target: PER_FILE },
  { label: '2 GPUs', gpuCount: 2, target: V2_TWO_GPUS },
]
const ONE_GPU = HOST.slice(0, 1)
const [TYPICAL, PRODUCTION] = [
  DEFAULT_THRESHOLDS.perf01.typicalSequences,
  DEFAULT_THRESHOLDS.perf01.productionSequences,
]
const SIZES = { resize: async (_b: unknown, records: number) => syntheticInput(records, SAMPLE), maxRecords: SAMPLE }

/** The truth of each question, from the twins' parts. */
function truthOf(d: Decision): number {
  const hours = (k: number, n: number) => trueWallMs(HOST.find((a) => a.gpuCount === k)!.target, n) / 3_600_000
  return d.kind === 'time' ? hours(d.gpuCount, d.sequences) : hours(1, d.sequences) / hours(d.gpuCount, d.sequences)
}

/** Whether a decided question's state is wrong about its truth. */
function wrong(d: Decision): boolean {
  const truth = truthOf(d)
  const passes = d.direction === 'at-most' ? truth <= d.threshold : truth >= d.threshold
  if (d.state === 'pass') return !passes
  if (d.state === 'fail') return passes
  if (d.state === 'at-threshold') return Math.abs(truth / d.threshold - 1) > DECISION.margin
  return false
}

interface Outcome {
  stop: string
  gpuMinutes: number
  looks: number
  decisions: Decision[]
  /** What the design said each question left open would need. */
  needs: string[]
}

async function study(
  seed: number,
  rule: CapacityStopRule,
  thresholds: Thresholds,
  arms: typeof HOST = ONE_GPU,
): Promise<Outcome> {
  const random = createRandomSource(`capacity-decide-study-${seed}`)
  const inputs = [1_000, 3_750].map((r) => syntheticInput(r, SAMPLE))
  const measured: ConfigMeasurements[] = plannedArms(arms, [1_000, 3_750], 2, random)
  // The twins log no worker progress and have no batching regime: the batching precondition is VirNucPro's, not theirs.
  const base = analysisOptions('virnucpro', rule === 'decided' ? DECISION.maxLooks : 1)
  const analysis = { ...base, decide: { ...base.decide, batching: null } }
  const state = await topUp(measured, {
    inputs,
    thresholds,
    // topUp counts each run x the most GPUs an arm holds: both arms of the 2-GPU host, each run twice.
    budgetGpuMinutes: BUDGET_GPU_MIN,
    maxTopUps: 40,
    ciTarget: VIRNUCPRO_TARGETS.ciHalfWidth,
    rule,
    analysis,
    sizes: SIZES,
    measure: async (c, input, runs) =>
      syntheticMeasurement(arms.find((a) => a.label === c.config.label)!.target, input.records, runs, random),
  })
  const { stats } = analyzeCapacity(measured, inputs, thresholds, [], analysis)
  return {
    stop: state.stop,
    gpuMinutes: state.gpuMinutes,
    looks: state.looks ?? 1,
    decisions: stats.decisions ?? [],
    needs: (state.undecided ?? []).map((u) => u.needs),
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
const say = (what: unknown) => {
  if (process.env.CAPACITY_DESIGN_STUDY) console.log(JSON.stringify(what))
}
const decidedCount = (o: Outcome) => o.decisions.filter((d) => d.state !== 'undecided').length

describe(`the decided rule on twins of VirNucPro, ${SEEDS} seeds`, () => {
  test('1 GPU, far from 10 h both ways: decided in every seed, never wrong, in fewer GPU-minutes than the width rule', async () => {
    const decided: Outcome[] = []
    const width: Outcome[] = []
    for (let seed = 0; seed < SEEDS; seed++) {
      decided.push(await study(seed, 'decided', DEFAULT_THRESHOLDS))
      width.push(await study(seed, 'width', DEFAULT_THRESHOLDS))
    }
    say({
      far: {
        decidedMedianGpuMin: median(decided.map((o) => o.gpuMinutes)),
        widthMedianGpuMin: median(width.map((o) => o.gpuMinutes)),
        stops: decided.map((o) => `${o.stop}@${o.looks}:${o.gpuMinutes.toFixed(1)}`),
        wrongSeeds: decided.filter((o) => o.decisions.some(wrong)).length,
      },
    })
    for (const o of decided) {
      expect(o.decisions.some(wrong)).toBe(false)
      expect(o.looks).toBeLessThanOrEqual(DECISION.maxLooks)
    }
    expect(decided.filter((o) => o.stop === 'decided').length).toBeGreaterThanOrEqual(SEEDS * 0.9)
    expect(median(decided.map((o) => o.gpuMinutes))).toBeLessThan(median(width.map((o) => o.gpuMinutes)))
    expect(decided.filter((o, s) => o.gpuMinutes < width[s]!.gpuMinutes).length).toBeGreaterThanOrEqual(SEEDS * 0.9)
    // The width rule spent more and decided no more.
    expect(decided.filter((o, s) => decidedCount(o) >= decidedCount(width[s]!)).length).toBe(SEEDS)
  }, 900_000)

  test('1 GPU, its 6 M truth 3% over the limit: wrong in at most 1 of 20 seeds; what stays open says what it needs', async () => {
    const truthH = trueWallMs(PER_FILE, PRODUCTION) / 3_600_000
    const near = {
      ...DEFAULT_THRESHOLDS,
      perf01: { ...DEFAULT_THRESHOLDS.perf01, targetMs: (truthH / 1.03) * 3_600_000 },
    }
    const outcomes: Outcome[] = []
    for (let seed = 0; seed < SEEDS; seed++) outcomes.push(await study(seed, 'decided', near))
    const nearOne = (o: Outcome) => o.decisions.find((d) => d.id === `capacity/1/perf01/${PRODUCTION}`)!
    say({
      near: {
        truthH,
        limitH: truthH / 1.03,
        states: outcomes.map((o) => `${nearOne(o).state}@${o.looks}:${o.gpuMinutes.toFixed(1)}`),
        wrongSeeds: outcomes.filter((o) => o.decisions.some(wrong)).length,
      },
    })
    expect(outcomes.filter((o) => o.decisions.some(wrong)).length).toBeLessThanOrEqual(1)
    for (const o of outcomes) {
      expect(o.looks).toBeLessThanOrEqual(DECISION.maxLooks)
      const open = o.decisions.filter((d) => d.state === 'undecided')
      expect(o.needs).toHaveLength(open.length)
      for (const n of o.needs) expect(n).toMatch(/more than 64 runs at the largest size|run\(s\) of|PASS|interval/)
    }
    // 45 K is far (minutes against hours): decided wherever the model holds (the parts can miss a measured size's
    // runs, and then nothing is decided: capacity/support.ts).
    // With the misfit in its intervals the design takes other steps (issue 48), and in 3 of 20 seeds a size it added is
    // one the parts miss (the runs' median outside the model's interval there): each such seed says so.
    const typical = outcomes.map((o) => o.decisions.find((d) => d.sequences === TYPICAL)!)
    for (const d of typical.filter((x) => x.state === 'undecided'))
      expect(d.why).toMatch(/^the runs cannot support a projection: .*the parts disagree with the runs/)
    expect(typical.filter((d) => d.state !== 'undecided').length).toBeGreaterThanOrEqual(SEEDS * 0.8)
  }, 900_000)

  test('both arms of the 2-GPU host in 60 GPU-minutes: never wrong; the 2-GPU arm left open says what it would need', async () => {
    const outcomes: Outcome[] = []
    for (let seed = 0; seed < SEEDS; seed++) outcomes.push(await study(seed, 'decided', DEFAULT_THRESHOLDS, HOST))
    const count = (id: string) =>
      outcomes.filter((o) => o.decisions.find((d) => d.id === id)?.state !== 'undecided').length
    say({
      host: {
        decided: Object.fromEntries((outcomes[0]?.decisions ?? []).map((d) => [d.id, count(d.id)])),
        stops: outcomes.map((o) => `${o.stop}@${o.looks}:${o.gpuMinutes.toFixed(1)}`),
        needs: outcomes[0]?.needs,
      },
    })
    for (const o of outcomes) {
      expect(o.decisions.some(wrong)).toBe(false)
      expect(o.needs).toHaveLength(o.decisions.filter((d) => d.state === 'undecided').length)
      // A cap for any run no slower than one seen (capacity/topup.ts overrunFactor): a run 17% slow may pass it by
      // its own excess.
      expect(o.gpuMinutes).toBeLessThanOrEqual(BUDGET_GPU_MIN * 1.05)
    }
    // The 1-GPU arm's 6 M FAIL is decided as on its own, but where its model misses a measured size (the parts against
    // the runs' median: a check made on the same 95% as always), which decides nothing.
    expect(count(`capacity/1/perf01/${PRODUCTION}`)).toBeGreaterThanOrEqual(SEEDS * 0.8)
  }, 900_000)
})
