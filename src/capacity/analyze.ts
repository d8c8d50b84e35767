/**
 * Capacity suite (kind `capacity`): every configuration (1, 2, 4, 8 GPUs as the host allows) measured at two or more
 * nested sizes of one input, all arms interleaved after a warm-up each, so slow drift falls on every arm alike; one
 * size model per configuration (src/measure/size-model.ts) and, against 1 GPU, speedup, break-even and asymptotic
 * speedup. Answers "will my sample finish in time on k GPUs, and is the k-th GPU worth it" at the measured size and
 * at the target sizes (thresholds.perf01: typical and production), each with a CI that covers run-to-run variation.
 * `stats` has the shape CapacityStats.
 */
import { DECISION } from '../config/capacity-targets.ts'
import type { Thresholds } from '../config/thresholds.ts'
import type { Configuration } from '../engine/configuration.ts'
import { completedRuns, type MeasuredConfiguration } from '../engine/measure-configuration.ts'
import { type Analysis, verdict } from '../engine/verdict.ts'
import type { InputIdentity } from '../input/identity.ts'
import type { ResolvedInput } from '../input/resolver.ts'
import type { SizeModel } from '../measure/index.ts'
import type { StageOptionsRead } from '../pipeline/target-help.ts'
import type { Verdict } from '../results/schema/index.ts'
import type { CapacityQuestion } from './answered.ts'
import { type ComparisonCapacity, compareCapacity } from './compare.ts'
import { type Decision, type DecisionOptions, decideCapacity, withDecisions } from './decisions.ts'
import type { DesignStep } from './design.ts'
import { type HeldOut, type HeldOutCheck, heldOutChecks, missedChecks } from './held-out.ts'
import { type ConfigMemory, memoryCapacity } from './memory.ts'
import { heldOutMisfit, type SizeMisfit, sizeMisfit, withMisfit } from './misfit.ts'
import { type ConfigCapacity, configCapacity } from './model.ts'
import { type CapacityRun, capacityRun } from './runs.ts'
import { sharedParts } from './shared.ts'
import { withCommonSources } from './steady.ts'
import { capacityVerdicts } from './verdicts.ts'

/** What the projections' CIs cover, for reports. */
export const CAPACITY_COVERS =
  "run-to-run variation of every part (start-up included) at the measured sizes and, beyond the largest measured size, the model's own error there when fitted without it (capacity/misfit.ts, three sizes or more); not a different input mix, nor effects that appear only above the sizes measured and held out (memory pressure, thermal limits)"

export interface CapacityStats {
  input: Pick<InputIdentity, 'source' | 'path' | 'sha256' | 'records' | 'workPerRecord' | 'chunkLength' | 'preset'>
  /** Records of each nested subset, ascending. */
  sizes: number[]
  /** Sequence-equivalents of the largest measured size: where `measured` verdicts are judged. */
  measuredSequences: number
  targets: number[]
  covers: string
  configurations: ConfigCapacity[]
  comparisons: ComparisonCapacity[]
  /** Configurations that could not be fitted, with why. */
  notFitted: { label: string; reason: string }[]
  /** Memory peaks per configuration projected to the targets (capacity/memory.ts); absent in records written before. */
  memory?: ConfigMemory[]
  /** The level of every interval of the figures (0.95, or a look's level where the design decides). */
  ciLevel?: number
  /** The questions in scope and where each stands (capacity/decisions.ts); absent in records written before. */
  decisions?: Decision[]
  /** Sizes measured directly beside the fit (the held-out check), each against the projection there. */
  direct?: HeldOutCheck[]
  /** Records of the held-out size joined to the fit after its check missed (the figures are then that refit's). */
  joinedHeldOut?: number
  /** The sizes the measurement fitted and held out, and why (capacity/structure.ts, capacity/held-out-plan.ts). */
  sizeChoice?: {
    plan: {
      fitted: number[]
      heldOut: number[]
      why: string
      tooSmall: { needRecords: number; text: string } | null
    } | null
    heldOut: {
      records: number | null
      why: string
      /** The GPU counts the check ran on (VIRNUCPRO_BENCH_CAPACITY_DIRECT); absent in records written before. */
      gpuCounts?: number[]
      /** Held-out runs that did not complete, per GPU count, with the failure's own line. */
      failed?: { gpuCount: number; reason: string }[]
      /** None run: the job limit left no time for it (the same command again runs it: capacity/answered.ts). */
      jobLimit?: true
    } | null
  }
  /** The sequential design's outcome (capacity/topup.ts's TopUpState: its steps say what it chose and why), when it ran. */
  sequential?: {
    stop: string
    topUps: number
    gpuMinutes: number
    budgetGpuMinutes: number
    /** As the design took them (DesignStep), read back from a record: its kind any string, its runner-up left out. */
    steps?: (Omit<DesignStep, 'kind' | 'runnerUp' | 'why'> & { kind: string; why?: string })[]
    notALine?: string[]
    /** Under the `decided` rule (capacity/topup.ts TopUpState): its looks and level, and what stayed undecided. */
    rule?: string
    looks?: number
    maxLooks?: number
    level?: number
    undecided?: { id: string; question: string; why: string; needs: string }[]
  } | null
  /**
   * The target's options per stage from its `predict --help` (runCapacitySuite), or why they could not be read: what
   * the bottleneck report names for a flagged stage where no settings study ran. Absent in records written before.
   */
  stageOptions?: StageOptionsRead['stageOptions']
  /** What the record answers (capacity/answered.ts); absent in records written before issue 58. */
  question?: CapacityQuestion
  stageOptionsProblem?: StageOptionsRead['stageOptionsProblem']
}

/** One configuration's measurements, one per size (same order as the sizes). */
export interface ConfigMeasurements {
  config: Configuration
  gpuCount: number
  bySize: MeasuredConfiguration[]
}

/** A subset's size in sequences of the source's average work: its records times its work per record over the source's. */
export const sequenceEquivalents = (input: ResolvedInput) => input.records * (1 + input.workRelativeDifference)

function runsOf(c: ConfigMeasurements, inputs: readonly ResolvedInput[], gpuStages: readonly string[]): CapacityRun[] {
  return c.bySize.flatMap((m, i) =>
    completedRuns(m).flatMap((o) => {
      const run = capacityRun(o.measured, sequenceEquivalents(inputs[i]!), gpuStages)
      return run ? [run] : []
    }),
  )
}

function failureOf(c: ConfigMeasurements): string | null {
  const failed = c.bySize.find((m) => m.failure)
  return failed?.failure
    ? `${failed.failure.label} ended as ${failed.failure.exitClass}: ${failed.failure.reason}`
    : null
}

/** One configuration's completed runs as the size model reads them, or why it has none to fit. */
export interface CapacityConfigRuns {
  label: string
  gpuCount: number
  /** The architecture its runs ran (their logs' own line, checked against what was asked: issue 56); null unknown. */
  architecture?: string | null
  runs: CapacityRun[]
  /** Records of each measured size (keyed by its sequence-equivalents). */
  recordsBySize: ReadonlyMap<number, number>
  /** A measurement that did not complete; null when every one did. */
  failure: string | null
}

/** What the runs were measured on: the input, its measured sizes (records), the largest in sequence-equivalents. */
export interface CapacityFrame {
  input: CapacityStats['input']
  sizes: number[]
  measuredSequences: number
}

/**
 * The index of the largest size every configuration has runs at (the sequential design may add a size to one
 * configuration only): where the configurations are compared as measured.
 */
function largestMeasuredByAll(configs: readonly ConfigMeasurements[], sizes: number): number {
  for (let i = sizes - 1; i >= 0; i--) if (configs.every((c) => (c.bySize[i]?.observations.length ?? 0) > 0)) return i
  return sizes - 1
}

/**
 * Fits and compares the configurations (the first is the baseline, normally 1 GPU).
 * @param inputs the nested subsets the measurements ran on, ascending, parallel to each `bySize`.
 */
export function analyzeCapacity(
  configs: readonly ConfigMeasurements[],
  inputs: readonly ResolvedInput[],
  t: Thresholds,
  /** Further sizes (sequences) to project to, before the targets: e.g. a size measured directly to check against. */
  extraSizes: readonly number[] = [],
  options: AnalysisOptions = PLAIN_ANALYSIS,
): Analysis<CapacityStats> {
  const recordsBySize = new Map(inputs.map((input) => [sequenceEquivalents(input), input.records]))
  const runs = configs.map((c) => ({
    label: c.config.label,
    gpuCount: c.gpuCount,
    architecture: c.config.architecture ?? null,
    runs: runsOf(c, inputs, t.perf02.stages),
    recordsBySize,
    failure: failureOf(c),
  }))
  const source = inputs[0]!.source
  const frame = {
    input: {
      source: source.source,
      path: source.path,
      sha256: source.sha256,
      records: source.records,
      workPerRecord: source.workPerRecord,
      chunkLength: source.chunkLength,
      preset: source.preset,
    },
    sizes: inputs.map((i) => i.records),
    measuredSequences: sequenceEquivalents(inputs[largestMeasuredByAll(configs, inputs.length)]!),
  }
  return analyzeCapacityRuns(runs, frame, t, extraSizes, options)
}

/** How an analysis judges: its intervals' level and what the decisions read (capacity/answer-options.ts). */
export interface AnalysisOptions {
  level: number
  decide: DecisionOptions
  /**
   * The figures only the answer reads, each stage's time at production, the chart's curve and the memory lines
   * (default on): a design's look, the running line and the studies go without them (over half an analysis's time).
   */
  answerFigures?: boolean
  /**
   * Sizes run directly and kept out of the fit (capacity/held-out.ts): each is checked against the projection there,
   * and a configuration whose check misses decides nothing (its questions undecided: the size model does not hold
   * beyond its largest fitted size). Or the checks themselves, made by an earlier analysis that did not see those runs
   * (the suite refits with a missed size joined to the fit: capacity/suite.ts).
   */
  heldOut?: readonly HeldOut[]
  checks?: readonly HeldOutCheck[]
  /**
   * Whether intervals beyond the largest measured size carry the model's misfit (capacity/misfit.ts); default true.
   * False gives the intervals of before issue 48 (run-to-run noise only): what the design study compares against.
   */
  misfit?: boolean
}

/** A plain 95% analysis with the decisions' default margin and no batching threshold (tests, studies). */
export const PLAIN_ANALYSIS: AnalysisOptions = { level: 0.95, decide: { margin: DECISION.margin, batching: null } }

/**
 * Fits and compares configurations from their runs (the suite's, or a stored run directory's: `virnucpro-bench
 * capacity`); the 1-GPU one is the baseline of the others.
 */
export function analyzeCapacityRuns(
  given: readonly CapacityConfigRuns[],
  frame: CapacityFrame,
  t: Thresholds,
  extraSizes: readonly number[] = [],
  options: AnalysisOptions = PLAIN_ANALYSIS,
): Analysis<CapacityStats> {
  const targets = [t.perf01.typicalSequences, t.perf01.productionSequences]
  const projected = [...new Set([...extraSizes, ...(options.heldOut ?? []).map((h) => h.sequences), ...targets])]
  const measured = frame.measuredSequences
  const fitted: {
    figures: ConfigCapacity
    model: SizeModel
    parts: string[]
    /** The figures before any misfit, and the leave-one-size-out misfit (capacity/misfit.ts). */
    raw: ConfigCapacity
    misfit: SizeMisfit | null
  }[] = []
  const notFitted: CapacityStats['notFitted'] = []
  const verdicts: Verdict[] = []
  // Each stage of a configuration read from one source in all its runs, before anything is fitted (shared parts too).
  const configs = given.map((c) => ({ ...c, runs: withCommonSources(c.runs) }))
  const shared = sharedParts(
    configs.filter((c) => !c.failure),
    t.perf02.stages,
    'capacity/shared',
  )
  for (const c of configs) {
    const result = c.failure
      ? null
      : configCapacity(
          { label: c.label, gpuCount: c.gpuCount, runs: c.runs, recordsBySize: c.recordsBySize },
          t.perf02.stages,
          projected,
          `capacity/${c.label}`,
          shared,
          options.level,
          options.answerFigures ?? true,
        )
    if (result) {
      result.figures.architecture = c.architecture ?? null
      // Every interval beyond the largest measured size carries the model's own error there (three sizes or more).
      const misfit =
        options.misfit === false
          ? null
          : sizeMisfit(
              { label: c.label, gpuCount: c.gpuCount, runs: c.runs, recordsBySize: c.recordsBySize },
              t.perf02.stages,
              `capacity/${c.label}`,
              options.level,
            )
      fitted.push({ ...result, figures: withMisfit(result.figures, misfit), raw: result.figures, misfit })
      continue
    }
    const reason = c.failure ?? 'completed runs do not span two sizes'
    notFitted.push({ label: c.label, reason })
    verdicts.push(
      verdict({
        id: `capacity/${c.gpuCount}/fit`,
        title: `size model, ${c.label}`,
        verdict: 'error',
        detail: `no size model, so no projected verdict for this configuration: ${reason}`,
      }),
    )
  }
  const base = fitted.find((f) => f.figures.gpuCount === 1) ?? null
  const comparisons = base
    ? fitted
        .filter((f) => f !== base)
        .map((f) =>
          compareCapacity(
            { label: base.figures.label, model: base.model, parts: base.parts },
            { label: f.figures.label, model: f.model, parts: f.parts, gpuCount: f.figures.gpuCount },
            [measured, ...projected],
            t,
            options.level,
          ),
        )
    : []
  // The held-out checks read the intervals with the leave-one-size-out misfit; the misfit they show themselves (a run
  // the model never saw, farther out) then widens every interval beyond the largest size where it is the larger.
  const direct = options.checks
    ? [...options.checks]
    : heldOutChecks({ configurations: fitted.map((f) => f.figures) }, options.heldOut ?? [])
  const configurations = fitted.map((f) => {
    const held = options.checks || options.misfit === false ? null : heldOutMisfit(f.raw, direct)
    const larger = held && Math.abs(held.growthErrorPct) > Math.abs(f.misfit?.growthErrorPct ?? 0) ? held : f.misfit
    return larger === f.misfit ? f.figures : withMisfit(f.raw, larger)
  })
  verdicts.push(...capacityVerdicts(configurations, comparisons, t, measured))
  const memory = (options.answerFigures ?? true) ? memoryCapacity(configs, targets) : { figures: [], verdicts: [] }
  verdicts.push(...memory.verdicts)
  const decisions = decideCapacity(configurations, comparisons, verdicts, t, {
    ...options.decide,
    missed: missedChecks(direct),
  })
  return {
    stats: {
      ciLevel: options.level,
      decisions,
      ...(direct.length > 0 && { direct }),
      input: frame.input,
      sizes: frame.sizes,
      measuredSequences: measured,
      targets,
      covers: CAPACITY_COVERS,
      configurations,
      comparisons,
      notFitted,
      memory: memory.figures,
    },
    verdicts: withDecisions(verdicts, decisions),
  }
}
