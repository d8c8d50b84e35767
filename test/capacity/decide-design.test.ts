import { describe, expect, test } from 'vitest'
import { analysisOptions } from '../../src/capacity/analysis-options.ts'
import { analyzeCapacity, type ConfigMeasurements } from '../../src/capacity/analyze.ts'
import { chooseToDecide, type DecideContext } from '../../src/capacity/decide-design.ts'
import { topUp } from '../../src/capacity/topup.ts'
import { DECISION, VIRNUCPRO_TARGETS } from '../../src/config/capacity-targets.ts'
import { DEFAULT_THRESHOLDS, type Thresholds } from '../../src/config/thresholds.ts'
import { twoSidedZ } from '../../src/measure/index.ts'
import { createRandomSource } from '../../src/measure/rng.ts'
import {
  PER_FILE,
  plannedMeasurements,
  syntheticInput,
  syntheticMeasurement,
  trueWallMs,
} from './support/synthetic-capacity.ts'

const SAMPLE = 20_000
const PLANNED = [1_000, 3_750]
const SIZES = { resize: async (_b: unknown, records: number) => syntheticInput(records, SAMPLE), maxRecords: SAMPLE }
const PRODUCTION = DEFAULT_THRESHOLDS.perf01.productionSequences
const gpuMinutes = (m: readonly ConfigMeasurements[]) =>
  m.flatMap((c) => c.bySize.flatMap((s) => s.observations)).reduce((a, o) => a + o.measured.run.wallMs, 0) / 60_000

/** VirNucPro v1's twin (28.8 h at 6 M) measured as planned, then topped up under `rule` within 60 GPU-minutes. */
async function designed(seed: string, rule: 'decided' | 'width', thresholds: Thresholds = DEFAULT_THRESHOLDS) {
  const random = createRandomSource(seed)
  const inputs = PLANNED.map((r) => syntheticInput(r, SAMPLE))
  const measured = plannedMeasurements(PER_FILE, PLANNED, 2, random)
  const analysis = analysisOptions('virnucpro', rule === 'decided' ? DECISION.maxLooks : 1)
  const state = await topUp(measured, {
    inputs,
    thresholds,
    budgetGpuMinutes: 60,
    ciTarget: VIRNUCPRO_TARGETS.ciHalfWidth,
    rule,
    analysis,
    sizes: SIZES,
    measure: async (_c, input, runs) => syntheticMeasurement(PER_FILE, input.records, runs, random),
  })
  const { stats } = analyzeCapacity(measured, inputs, thresholds, [], analysis)
  return { state, stats, gpuMinutes: gpuMinutes(measured), sizes: inputs.map((i) => i.records) }
}

describe('the design under the decided rule', () => {
  test('every question decided (6 M FAIL, 45 K PASS once a third size is in), sooner than the width rule', async () => {
    const decided = await designed('decide-far', 'decided')
    expect(decided.state).toMatchObject({ stop: 'decided', rule: 'decided', maxLooks: DECISION.maxLooks })
    expect(decided.state.looks).toBeLessThanOrEqual(DECISION.maxLooks)
    const states = Object.fromEntries((decided.stats.decisions ?? []).map((d) => [d.id, d.state]))
    expect(states).toEqual({ 'capacity/1/perf01/45000': 'pass', [`capacity/1/perf01/${PRODUCTION}`]: 'fail' })
    // The PASS waited for a third size: the design's first step was the one a PASS needs.
    expect(decided.sizes.length).toBeGreaterThanOrEqual(3)
    expect(['third size', 'reach', 'files']).toContain(decided.state.steps[0]!.kind)
    const width = await designed('decide-far', 'width')
    if (process.env.CAPACITY_DESIGN_STUDY)
      console.log(
        JSON.stringify({
          decided: [decided.state.stop, decided.state.looks, decided.gpuMinutes, decided.sizes],
          width: [width.state.stop, width.gpuMinutes, width.sizes],
        }),
      )
    expect(decided.gpuMinutes).toBeLessThan(width.gpuMinutes)
  }, 120_000)

  test('a threshold at the truth: no more than six looks, and each open question says what would decide it', async () => {
    const truthMs = trueWallMs(PER_FILE, PRODUCTION)
    const atTruth = { ...DEFAULT_THRESHOLDS, perf01: { ...DEFAULT_THRESHOLDS.perf01, targetMs: truthMs } }
    const { state, stats } = await designed('decide-near', 'decided', atTruth)
    if (process.env.CAPACITY_DESIGN_STUDY) console.log(JSON.stringify(state))
    expect(state.looks).toBeLessThanOrEqual(DECISION.maxLooks)
    const open = (stats.decisions ?? []).filter((d) => d.state === 'undecided')
    // The truth sits on the threshold: a wrong side is never decided (at threshold is no error).
    const production = (stats.decisions ?? []).find((d) => d.id === `capacity/1/perf01/${PRODUCTION}`)!
    expect(['undecided', 'at-threshold']).toContain(production.state)
    if (state.stop !== 'decided') expect(state.undecided!.length).toBeGreaterThan(0)
    for (const u of state.undecided ?? []) expect(u.needs).toMatch(/run|PASS|interval/)
    expect(open.every((d) => state.undecided!.some((u) => u.id === d.id))).toBe(true)
  }, 120_000)

  test('the runs a PASS needs come first: a verdict headed to PASS on two sizes asks for a third', () => {
    const random = createRandomSource('decide-first')
    const inputs = PLANNED.map((r) => syntheticInput(r, SAMPLE))
    const measured = plannedMeasurements(PER_FILE, PLANNED, 2, random)
    const analysis = analysisOptions('virnucpro', DECISION.maxLooks)
    const { stats } = analyzeCapacity(measured, inputs, DEFAULT_THRESHOLDS, [], analysis)
    const ctx: DecideContext = {
      held: 1,
      maxRecords: SAMPLE,
      canResize: true,
      room: 60,
      looksLeft: 4,
      z: twoSidedZ(analysis.level),
      margin: DECISION.margin,
      batching: analysis.decide.batching,
    }
    const choice = chooseToDecide(stats.configurations, stats.decisions!, ctx)
    // The cheapest size that makes three: the middle of the range.
    expect('candidate' in choice && PLANNED.includes(choice.candidate.records)).toBe(false)
    expect('candidate' in choice && choice.candidate.kind).toBe('third size')
    expect('candidate' in choice && choice.why).toMatch(/a PASS needs three sizes/)
    // Without a way to make a size: repeats only, and nothing a repeat can decide here (the FAIL is decided already).
    expect(chooseToDecide(stats.configurations, stats.decisions!, { ...ctx, canResize: false })).toMatchObject({
      stop: 'undecidable',
    })
  })
})
