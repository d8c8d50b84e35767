/**
 * Issue 48's design study on the CPU: one twin of a pipeline whose small sizes mislead (synthetic-capacity.ts FILLING),
 * the user's own sample, measured by today's design (1,000 and 4,000 records planned, the decided rule's top-ups,
 * intervals of run-to-run noise) and by the design of issue 48 (a probe reads the structure, three sizes up to two
 * files, the held-out check, the misfit in the intervals), each through the real analysis. Per seed: the 6 M interval
 * against the twin's truth, the status, the GPU-minutes, and the held-out check.
 */
import { analysisOptions } from '../../../src/capacity/analysis-options.ts'
import { analyzeCapacity, type ConfigMeasurements } from '../../../src/capacity/analyze.ts'
import { capacityAnswer } from '../../../src/capacity/answer.ts'
import { checkedAnalysis } from '../../../src/capacity/checked-analysis.ts'
import { heldOutChoice, heldOutReserve, spentGpuMinutes } from '../../../src/capacity/held-out-plan.ts'
import { planSizes, repeatingUnit, structureOf } from '../../../src/capacity/structure.ts'
import { topUp } from '../../../src/capacity/topup.ts'
import { DECISION, VIRNUCPRO_TARGETS } from '../../../src/config/capacity-targets.ts'
import { DEFAULT_THRESHOLDS } from '../../../src/config/thresholds.ts'
import type { SuiteContext } from '../../../src/engine/context.ts'
import { createRandomSource } from '../../../src/measure/rng.ts'
import {
  plannedMeasurements,
  type SyntheticTarget,
  syntheticInput,
  syntheticMeasurement,
  syntheticRun,
  trueWallMs,
} from './synthetic-capacity.ts'

export const PRODUCTION = DEFAULT_THRESHOLDS.perf01.productionSequences
export const BUDGET_GPU_MIN = 60

export interface StudyOutcome {
  statusText: string
  /** The 6 M wall time (h) with its interval, and whether the interval holds the twin's truth. */
  estimateH: number
  ci: { low: number; high: number } | null
  covered: boolean
  gpuMinutes: number
  fitted: number[]
  /** The held-out check: its size, error (%) and whether it fell inside. */
  check: { records: number; errorPct: number | null; inside: boolean | null } | null
}

/** Decisions as the suite judges VirNucPro, without its batching threshold (the twin has one GPU only). */
const ANALYSIS = (() => {
  const base = analysisOptions('virnucpro', DECISION.maxLooks)
  return { ...base, decide: { ...base.decide, batching: null } }
})()

const hours = (ms: number) => ms / 3_600_000

function outcomeOf(
  t: SyntheticTarget,
  measured: readonly ConfigMeasurements[],
  stats: ReturnType<typeof analyzeCapacity>['stats'],
  statusText: string,
  gpuMinutes: number,
  fitted: number[],
): StudyOutcome {
  const at = stats.configurations[0]?.at.find((a) => a.sequences === PRODUCTION)?.wallMs
  const truth = trueWallMs(t, PRODUCTION)
  const check = stats.direct?.[0]
  void measured
  return {
    statusText,
    estimateH: at ? hours(at.estimate) : Number.NaN,
    ci: at?.ci ? { low: hours(at.ci.low), high: hours(at.ci.high) } : null,
    covered: !!at?.ci && at.ci.low <= truth && truth <= at.ci.high,
    gpuMinutes,
    fitted,
    check: check ? { records: check.records, errorPct: check.errorPct, inside: check.insideCi } : null,
  }
}

/** Where a design's new sizes come from: nested subsets of the user's sample, up to all of it. */
const sampleSizes = (sample: number) => ({
  resize: async (_base: unknown, records: number) => syntheticInput(records, sample),
  maxRecords: sample,
})

/** Today's design: 1,000 and 4,000 records planned (2 runs each), the decided rule's top-ups, noise-only intervals. */
export async function todaysDesign(t: SyntheticTarget, seed: number, sample: number): Promise<StudyOutcome> {
  const random = createRandomSource(`held-out-study-today-${seed}`)
  const planned = [1_000, 4_000]
  const inputs = planned.map((r) => syntheticInput(r, sample))
  const measured = plannedMeasurements(t, planned, 2, random)
  const analysis = { ...ANALYSIS, misfit: false }
  await topUp(measured, {
    inputs,
    thresholds: DEFAULT_THRESHOLDS,
    budgetGpuMinutes: BUDGET_GPU_MIN,
    maxTopUps: 40,
    ciTarget: VIRNUCPRO_TARGETS.ciHalfWidth,
    rule: 'decided',
    analysis,
    sizes: sampleSizes(sample),
    measure: async (_c, input, runs) => syntheticMeasurement(t, input.records, runs, random),
  })
  const { stats } = analyzeCapacity(measured, inputs, DEFAULT_THRESHOLDS, [], analysis)
  return outcomeOf(
    t,
    measured,
    stats,
    'FINAL',
    spentGpuMinutes(measured),
    inputs.map((i) => i.records),
  )
}

/** Issue 48's design: probe, sizes by structure, the decided rule within what the check leaves, the held-out check. */
export async function heldOutDesign(t: SyntheticTarget, seed: number, sample: number): Promise<StudyOutcome> {
  const random = createRandomSource(`held-out-study-new-${seed}`)
  const probe = syntheticRun(t, 1_000, random)
  const probeMin = probe.measured.run.wallMs / 60_000
  const structure = structureOf({ records: 1_000, progress: probe.measured.progress ?? [] }, VIRNUCPRO_TARGETS.batching)
  const plan = planSizes([repeatingUnit(structure, 1)], sample)
  const inputs = plan.fitted.map((r) => syntheticInput(r, sample))
  const measured = plannedMeasurements(t, plan.fitted, 2, random)
  const direct = { runs: 1, records: plan.heldOut }
  const reserve = heldOutReserve(measured, inputs, DEFAULT_THRESHOLDS, [1], direct).gpuMinutes
  await topUp(measured, {
    inputs,
    thresholds: DEFAULT_THRESHOLDS,
    budgetGpuMinutes: Math.max(0, BUDGET_GPU_MIN - probeMin - reserve),
    maxTopUps: 40,
    ciTarget: VIRNUCPRO_TARGETS.ciHalfWidth,
    rule: 'decided',
    analysis: ANALYSIS,
    sizes: sampleSizes(sample),
    measure: async (_c, input, runs) => syntheticMeasurement(t, input.records, runs, random),
  })
  const ctx = {
    thresholds: DEFAULT_THRESHOLDS,
    inputs: { ...sampleSizes(sample), sizeLimit: () => sample },
  } as unknown as SuiteContext
  const choice = await heldOutChoice(ctx, measured, inputs, [1], direct, BUDGET_GPU_MIN - probeMin)
  let gpuMinutes = probeMin + spentGpuMinutes(measured)
  let join = null
  const heldOut = []
  if (choice.records !== null) {
    const m = syntheticMeasurement(t, choice.records, 1, random)
    const wallMs = m.observations[0]!.measured.run.wallMs
    gpuMinutes += wallMs / 60_000
    const check = { label: '1 GPU', gpuCount: 1, records: choice.records, sequences: choice.records, runs: 1 }
    heldOut.push({ ...check, medianWallMs: wallMs })
    // A missed check with GPU-minutes left measures further, as the suite does: one more run at the held-out size.
    const missed = analyzeCapacity(measured, inputs, DEFAULT_THRESHOLDS, [], { ...ANALYSIS, heldOut }).stats.direct?.[0]
    if (missed?.insideCi === false && gpuMinutes + wallMs / 60_000 <= BUDGET_GPU_MIN) {
      const more = syntheticMeasurement(t, choice.records, 1, random).observations
      gpuMinutes += more[0]!.measured.run.wallMs / 60_000
      m.observations.push(...more)
      const walls = m.observations.map((o) => o.measured.run.wallMs).sort((x, y) => x - y)
      heldOut[0] = { ...check, runs: 2, medianWallMs: (walls[0]! + walls[1]!) / 2 }
    }
    join = { input: syntheticInput(choice.records, sample), byGpuCount: new Map([[1, m]]) }
  }
  const { stats, verdicts } = checkedAnalysis(measured, inputs, DEFAULT_THRESHOLDS, [], { ...ANALYSIS, heldOut }, join)
  const answer = capacityAnswer(stats, verdicts, { final: true, keptRuns: 0, plannedRuns: 0 })
  return outcomeOf(
    t,
    measured,
    stats,
    answer.statusText,
    gpuMinutes,
    inputs.map((i) => i.records),
  )
}
