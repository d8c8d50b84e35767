/**
 * The capacity suite's sequential design: after the planned runs, each next step is chosen and measured, then the
 * model refitted (a look), until the stop rule (config/capacity-targets.ts CapacityStopRule) says so or the GPU-minute
 * budget is spent:
 * - `decided` (default): until every verdict in scope is decided, or its looks (DECISION.maxLooks) are spent; each step
 *   the runs most likely to decide an open verdict per GPU-minute, the runs a PASS needs first
 *   (capacity/decide-design.ts), and what each verdict left open would need (capacity/decide-needs.ts);
 * - `width`: until every configuration's production-size CI is as narrow as its target (capacity/width-rule.ts).
 * Each step is kept with why.
 *
 * The budget counts the runs' own wall times (warm-ups included) times the GPUs the host holds for the measurement,
 * not the clock: a measurement replayed from the run cache then makes the same decisions and measures nothing new. It
 * is a cap: a step's cost is counted as slow as the slowest run seen against its median (overrunFactor).
 */
import { type CapacityStopRule, DECISION } from '../config/capacity-targets.ts'
import type { Thresholds } from '../config/thresholds.ts'
import type { MeasuredConfiguration } from '../engine/measure-configuration.ts'
import type { ResolvedInput } from '../input/resolver.ts'
import { median, toSorted, twoSidedZ } from '../measure/index.ts'
import {
  type AnalysisOptions,
  analyzeCapacity,
  type CapacityStats,
  type ConfigMeasurements,
  PLAIN_ANALYSIS,
} from './analyze.ts'
import { chooseToDecide, type DecideContext, decideStep } from './decide-design.ts'
import { neededFor } from './decide-needs.ts'
import { CAPACITY_CI_TARGET, type DesignStep, notALine, toStep } from './design.ts'
import { chooseByWidth } from './width-rule.ts'

export { BEND_ROOM_FACTOR, ciExcess } from './width-rule.ts'
export { CAPACITY_CI_TARGET, type DesignStep }
/** Runs the top-ups add at most, whatever the budget: a runaway loop on a host too noisy to converge is no design. */
export const CAPACITY_MAX_TOPUPS = 24
/** The suite's budget: its runs' wall time x the GPUs the host holds, at most (issue 24: one 2-GPU host, 15). */
export const CAPACITY_BUDGET_GPU_MIN = 15

export interface TopUpState {
  /**
   * Why the loop ended. Under the `decided` rule: `decided` (every question in scope decided), `looks` (the last look
   * taken), `undecidable` (no run the design can make is expected to decide what is open), `budget`; under `width`:
   * `targets-reached` and the rest.
   */
  stop:
    | 'decided'
    | 'looks'
    | 'undecidable'
    | 'targets-reached'
    | 'budget'
    | 'job-limit'
    | 'max-top-ups'
    | 'no-fit'
    | 'no-ci'
    | 'not-a-line'
    | 'run-failed'
  /** The stop rule it ran under (absent in records written before: `width`). */
  rule?: CapacityStopRule
  /** Looks taken (the planned runs' one, then one after each step) and at most; the interval level each judged at. */
  looks?: number
  maxLooks?: number
  level?: number
  /** Under `decided`, each question left undecided when it stopped, and what would decide it. */
  undecided?: { id: string; question: string; why: string; needs: string }[]
  /** Runs added. */
  topUps: number
  /** GPU-minutes the runs took (their wall times x the GPUs held). */
  gpuMinutes: number
  budgetGpuMinutes: number
  /** Each decision, in order. */
  steps: DesignStep[]
  /** Configurations whose runs say their wall time is not a line (they got no further runs). */
  notALine: string[]
  /** The run that did not complete, when one stopped the design (it stays in the record, unfitted). */
  failure: string | null
}

/** How the suite measures what the design chose, and where a new size's input comes from. */
export interface TopUpOptions {
  /** The measured inputs, ascending, parallel to every `bySize`; a size the design adds is inserted in order. */
  inputs: ResolvedInput[]
  thresholds: Thresholds
  budgetGpuMinutes: number
  /** Measures `runs` more runs of `c` on `input`; k numbers the decisions (1, 2, ...). */
  measure: (c: ConfigMeasurements, input: ResolvedInput, runs: number, k: number) => Promise<MeasuredConfiguration>
  /**
   * An input of `records` records nested with the measured ones (InputResolver.resize) and the most records it gives
   * (InputResolver.sizeLimit); absent: repeats at the measured sizes only.
   */
  sizes?: { resize: (base: ResolvedInput, records: number) => Promise<ResolvedInput>; maxRecords: number }
  /** Runs the design may add at most (default CAPACITY_MAX_TOPUPS). */
  maxTopUps?: number
  /** The 6 M CI half-width each configuration aims at (config/capacity-targets.ts); default CAPACITY_CI_TARGET. */
  ciTarget?: (gpuCount: number) => number
  /** When to stop (config/capacity-targets.ts CapacityStopRule); default `width`, the suite passes its setting. */
  rule?: CapacityStopRule
  /** How each look judges (capacity/analysis-options.ts); default a plain 95% analysis. */
  analysis?: AnalysisOptions
  /**
   * ms the job limit leaves the design now (VIRNUCPRO_BENCH_JOB_LIMIT_S, less what the held-out check and the rest of
   * the invocation keep); absent: no limit. A step is cut to the runs that fit, and the design stops (`job-limit`)
   * where none does. The choice itself is the budget's, not the clock's, so the same command run again after the
   * limit replays the same steps from the journal and goes on where this one stopped.
   */
  timeLeftMs?: () => number
}

const runsMs = (measured: readonly ConfigMeasurements[]) =>
  measured.flatMap((c) => c.bySize.flatMap((m) => m.observations)).reduce((a, o) => a + o.measured.run.wallMs, 0)

/**
 * How much longer than its median a run took: the slowest completed run against its size's median, over every
 * configuration and size (1 where no size has two runs). The design's costs are medians and fits, so a run as slow as
 * one already seen would overspend a room its median fits: on a busy 2-core CI VM a design ended at 0.2268 GPU-minutes
 * against a budget of 0.2245. topUp counts each step's cost times the most this, or a step's own runs against its
 * cost, has been so far, so the budget is a cap for any run no slower than one seen.
 */
export function overrunFactor(measured: readonly ConfigMeasurements[]): number {
  let factor = 1
  for (const slot of measured.flatMap((c) => c.bySize)) {
    const walls = slot.observations
      .filter((o) => !o.measured.warmup && o.measured.run.exitClass === 'completed')
      .map((o) => o.measured.run.wallMs)
    if (walls.length < 2) continue
    const mid = median(toSorted(walls, 'capacity top-up walls'))
    if (mid > 0) factor = Math.max(factor, Math.max(...walls) / mid)
  }
  return factor
}

/**
 * `extra`'s observations added to `c`'s measurement of `input` (a new size: a slot in every configuration, empty in
 * the others). A run that did not complete stays among the observations, unfitted (completedRuns leaves it out), as a
 * failed top-up always did: the planned runs' model stands, and the design's state says what failed.
 */
function merge(
  measured: ConfigMeasurements[],
  inputs: ResolvedInput[],
  c: ConfigMeasurements,
  input: ResolvedInput,
  extra: MeasuredConfiguration,
): void {
  let at = inputs.findIndex((i) => i.file === input.file)
  if (at < 0) {
    at = inputs.filter((i) => i.records < input.records).length
    inputs.splice(at, 0, input)
    for (const m of measured)
      m.bySize.splice(at, 0, { config: m.config, observations: [], stop: 'run-budget', failure: null, reusedRuns: 0 })
  }
  const slot = c.bySize[at]!
  c.bySize[at] = {
    ...slot,
    observations: [...slot.observations, ...extra.observations],
    reusedRuns: slot.reusedRuns + extra.reusedRuns,
  }
}

/**
 * Adds the runs the design chooses until every configuration's CI is on target (and measured at three sizes, where
 * the budget allows), or the budget is spent. `inputs` grows with the sizes added, in order, as does every `bySize`.
 */
export async function topUp(measured: ConfigMeasurements[], o: TopUpOptions): Promise<TopUpState> {
  const held = Math.max(...measured.map((c) => c.gpuCount))
  const production = o.thresholds.perf01.productionSequences
  const gpuMinutes = () => (runsMs(measured) / 60_000) * held
  const steps: DesignStep[] = []
  const maxRecords = o.sizes?.maxRecords ?? o.inputs.at(-1)!.records
  const rule = o.rule ?? 'width'
  const analysis = o.analysis ?? PLAIN_ANALYSIS
  let added = 0
  let failure: string | null = null
  // Kept at its largest: runs added at a size pull its median up and so its own ratio down, but not the host's noise.
  let overrun = overrunFactor(measured)
  for (let look = 1; ; look++) {
    const { stats } = analyzeCapacity(measured, o.inputs, o.thresholds, [], { ...analysis, answerFigures: false })
    const room = (o.budgetGpuMinutes - gpuMinutes()) / overrun
    const ctx: DecideContext = {
      held,
      maxRecords,
      canResize: o.sizes !== undefined,
      room,
      looksLeft: Math.max(0, DECISION.maxLooks - look - 1),
      z: twoSidedZ(analysis.level),
      margin: analysis.decide.margin,
      batching: analysis.decide.batching,
    }
    const state = (stop: TopUpState['stop']): TopUpState => ({
      stop,
      rule,
      looks: look,
      maxLooks: rule === 'decided' ? DECISION.maxLooks : look,
      level: analysis.level,
      topUps: added,
      gpuMinutes: gpuMinutes(),
      budgetGpuMinutes: o.budgetGpuMinutes,
      steps,
      notALine: stats.configurations.filter(notALine).map((c) => c.label),
      failure,
      ...(rule === 'decided' && {
        undecided: (stats.decisions ?? [])
          .filter((d) => d.state === 'undecided')
          .map((d) => ({ id: d.id, question: d.question, why: d.why, needs: neededFor(d, stats.configurations, ctx) })),
      }),
    })
    if (stats.configurations.length === 0) return state('no-fit')
    const next = rule === 'decided' ? decideNext(stats, look, ctx) : widthNext(stats, production, room, o, held)
    if ('stop' in next) return state(next.stop)
    if (added + next.runs > (o.maxTopUps ?? CAPACITY_MAX_TOPUPS)) return state('max-top-ups')
    const c = measured.find((m) => m.config.label === next.step.label)!
    const runs = runsWithinLimit(next, c.gpuCount, overrun, o.timeLeftMs?.())
    if (runs === 0) return state('job-limit')
    const input = await inputOf(o, next.records)
    steps.push(
      runs < next.runs
        ? { ...next.step, why: `${next.step.why}; cut to ${runs} of ${next.runs} runs by the job limit` }
        : next.step,
    )
    const before = gpuMinutes()
    const extra = await o.measure(c, input, runs, look)
    added += extra.observations.filter((x) => !x.measured.warmup).length
    merge(measured, o.inputs, c, input, extra)
    if (next.gpuMinutes > 0) overrun = Math.max(overrun, (gpuMinutes() - before) / next.gpuMinutes)
    overrun = Math.max(overrun, overrunFactor(measured))
    if (extra.failure) {
      failure = `${extra.failure.label} ended as ${extra.failure.exitClass}: ${extra.failure.reason}`
      return state('run-failed')
    }
    if (runs < next.runs) return state('job-limit')
  }
}

/**
 * The runs of `next` the job limit leaves time for: each as slow as its share of the step's GPU-minutes on its
 * configuration's GPUs, times the overrun seen (a run slower than its median must not carry the invocation past the
 * limit). All of them where there is no limit.
 */
export function runsWithinLimit(
  next: { runs: number; gpuMinutes: number },
  gpuCount: number,
  overrun: number,
  timeLeftMs: number | undefined,
): number {
  if (timeLeftMs === undefined) return next.runs
  const runMs = ((next.gpuMinutes / Math.max(1, next.runs)) * 60_000 * overrun) / Math.max(1, gpuCount)
  if (!(runMs > 0)) return next.runs
  return Math.max(0, Math.min(next.runs, Math.floor(timeLeftMs / runMs)))
}

/** What one step measures: the record's step, and the runs at which size it costs. */
type Next = { step: DesignStep; records: number; runs: number; gpuMinutes: number } | { stop: TopUpState['stop'] }

/** The `width` rule's next step (choose). */
function widthNext(stats: CapacityStats, production: number, room: number, o: TopUpOptions, held: number): Next {
  const choice = chooseByWidth(stats, production, room, {
    held,
    maxRecords: o.sizes?.maxRecords ?? o.inputs.at(-1)!.records,
    canResize: o.sizes !== undefined,
    known: o.inputs.map((i) => i.records),
    ...(o.ciTarget && { ciTarget: o.ciTarget }),
  })
  if ('stop' in choice) return choice
  const { step, runnerUp } = choice
  return { step: toStep(step, runnerUp), records: step.records, runs: step.runs, gpuMinutes: step.gpuMinutes }
}

/**
 * The `decided` rule's next step (capacity/decide-design.ts): none once every question is decided or this was the
 * last look (DECISION.maxLooks: a further look would judge at a level the looks before it did not spend for).
 */
function decideNext(stats: CapacityStats, look: number, ctx: DecideContext): Next {
  const decisions = stats.decisions ?? []
  if (decisions.every((d) => d.state !== 'undecided')) return { stop: 'decided' }
  if (look >= DECISION.maxLooks) return { stop: 'looks' }
  const choice = chooseToDecide(stats.configurations, decisions, ctx)
  if ('stop' in choice) return { stop: choice.stop }
  const k = choice.candidate
  return { step: decideStep(choice, stats.targets.at(-1)!), records: k.records, runs: k.runs, gpuMinutes: k.gpuMinutes }
}

/** The measured input of `records` records, or a new one nested with them. */
async function inputOf(o: TopUpOptions, records: number): Promise<ResolvedInput> {
  const known = o.inputs.find((i) => i.records === records)
  if (known) return known
  // The design proposes new sizes only where `sizes` gives them (maxRecords), or between measured ones.
  if (!o.sizes) throw new RangeError(`capacity design: no input of ${records} records and no way to make one`)
  return o.sizes.resize(o.inputs.at(-1)!, records)
}
