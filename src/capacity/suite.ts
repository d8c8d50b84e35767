/**
 * Runs the capacity suite: every (configuration, size) arm measured in one interleaved measurement (A1 B1 C1 D1 A2 ...:
 * one warm-up of each arm first, then the measured runs in turn, so drift and a cold first process fall on every arm
 * alike), through the shared-run cache (the scaling suite's per-k records read the same runs), then analysed and
 * written at once. The measured-size scaling records come from the largest size's arms (capacityArms' `largest`).
 * With a budget, the sequential design (capacity/topup.ts) then adds the runs it chooses, sizes the input resolver
 * makes on demand (InputResolver.resize) included, each through the same run journal under a label of its own.
 */

import { join } from 'node:path'
import { MIN_SIZE_RATIO } from '../config/capacity-sample.ts'
import { type CapacityStopRule, capacityTargets } from '../config/capacity-targets.ts'
import type { Configuration } from '../engine/configuration.ts'
import type { SuiteContext } from '../engine/context.ts'
import { journalFor } from '../engine/journal-options.ts'
import {
  completedRuns,
  type MeasuredConfiguration,
  measureInterleaved,
  SUITE_POLICY,
} from '../engine/measure-configuration.ts'
import { failureReason, type SuiteMeasure, type SuiteOutcome, writeSuiteRecord } from '../engine/record.ts'
import type { ResolvedInput } from '../input/resolver.ts'
import { median, toSorted } from '../measure/index.ts'
import { readStageOptions, type StageOptionsRead } from '../pipeline/target-help.ts'
import { analysisOptions, plannedLooks } from './analysis-options.ts'
import { analyzeCapacity, type ConfigMeasurements, sequenceEquivalents } from './analyze.ts'
import {
  answerEnvironment,
  answeredInRun,
  answeredLine,
  answerInRun,
  type CapacityQuestion,
  capacityQuestion,
  cutByJobLimit,
  otherQuestionLine,
  questionOf,
} from './answered.ts'
import { checkedAnalysis, type JoinOnMiss } from './checked-analysis.ts'
import { type HeldOut, missedChecks } from './held-out.ts'
import {
  type HeldOutChoice,
  heldOutChoice,
  heldOutGpuMinutes,
  heldOutReserve,
  spentGpuMinutes,
} from './held-out-plan.ts'
import { capacityPurpose, type RecordName } from './purpose.ts'
import { runningAnswer } from './running-answer.ts'
import type { SizePlan } from './structure.ts'
import { type TopUpState, topUp } from './topup.ts'

/** A configuration and its GPU count (1 GPU first: the baseline every other one is compared with). */
export interface SizedConfiguration {
  config: Configuration
  gpuCount: number
}

/**
 * Each configuration's measurements, with the sequential design's outcome when it ran and the inputs measured (the
 * planned ones and any size the design added, parallel to every `bySize`).
 */
export type CapacityMeasurements = ConfigMeasurements[] & {
  sequential?: TopUpState
  inputs?: ResolvedInput[]
  /** The GPU-minutes the design kept for the held-out check (held-out-plan.ts heldOutReserve). */
  heldOutReserve?: number
  /** The wall ms the design kept for it under a job limit (CapacityOptions.deadlineMs). */
  heldOutReserveMs?: number
}

const sizeLabel = (config: Configuration, input: ResolvedInput) =>
  `${config.label}, ${input.records.toLocaleString('en-US')} seqs`

/** How a capacity measurement runs beyond its arms. */
export interface CapacityOptions {
  /** GPU-minutes the sequential design may spend on top-up runs (capacity/topup.ts); 0 (default): planned runs only. */
  budgetGpuMinutes?: number
  /**
   * The record's id suffix or its own name (writeCapacityRecord's `naming`: a known answer's), so the journal names
   * the record the runs are for: a measurement whose journal names no record it writes reads back as a second,
   * partial answer of the same name.
   */
  purposeSuffix?: string | RecordName
  /** When the design stops (config/capacity-targets.ts): once every verdict in scope is decided (default), on widths. */
  rule?: CapacityStopRule
  /**
   * Where the answer's lines after each run go (capacity/running-answer.ts: the line and each UNDECIDED's reason,
   * joined by newlines: one block a run); absent: none.
   */
  onAnswer?: (lines: string) => void
  /**
   * The held-out check (issue 48): one size larger than every fitted one run directly after the design, `runs` times
   * on each configuration of `gpuCounts` (default every one measured), kept in the record beside the fit and never
   * fitted until it misses, so the projection there is checked against runs it did not see. `records`: the sizes to
   * hold out in order of preference (capacity/structure.ts planSizes: the user's whole sample, then the next size up),
   * the first the budget left after the design affords; default the user's whole sample. The design keeps GPU-minutes
   * for the cheapest of them (VIRNUCPRO_BENCH_CAPACITY_DIRECT picks the GPU counts).
   */
  direct?: { gpuCounts?: readonly number[]; runs: number; records?: readonly number[] }
  /** runCapacitySuite only: the sizes the measurement fits and why (capacity/structure.ts), kept in the record. */
  sizePlan?: SizePlan
  /** runCapacitySuite only: the target's options per stage, read once by a caller of several answers (a study). */
  stageOptions?: StageOptionsRead
  /**
   * runCapacitySuite only: take the run's own answer to the same question where another file of the run wrote it
   * already (capacity/answered.ts), under its name or another, instead of measuring a second one: the capacity file
   * and the settings study's default (the same configurations at the same sizes), the v1.0 baseline and the study's
   * `no --parallel` winner (the same command line at the sizes its path plans).
   */
  takeAnswered?: boolean
  /**
   * When the measurement must be done, held-out check included (epoch ms: the invocation's start plus
   * VIRNUCPRO_BENCH_JOB_LIMIT_S, less what the rest of the invocation keeps); absent: no limit. The design stops short
   * of it (capacity/topup.ts `job-limit`) and a check it leaves no time for is not run: the record says so, is no
   * answer (capacity/answered.ts), and the same command run again replays the kept runs and goes on. The planned runs
   * are not cut: a job limit that kills one is continued as any kill is.
   */
  deadlineMs?: number
}

/**
 * Every configuration at every size, interleaved; shared through the run cache (one call measures, later calls with
 * the same arms read it back).
 * @throws RangeError when there are fewer than 2 sizes or no configuration.
 */
export async function measureCapacity(
  ctx: SuiteContext,
  m: Omit<SuiteMeasure, 'input'>,
  configs: readonly SizedConfiguration[],
  inputs: readonly ResolvedInput[],
  o: CapacityOptions = {},
): Promise<CapacityMeasurements> {
  const { budgetGpuMinutes = 0, purposeSuffix = '', rule = 'decided' } = o
  if (inputs.length < 2) throw new RangeError(`capacity needs >= 2 input sizes, got ${inputs.length}`)
  if (configs.length === 0) throw new RangeError('capacity needs at least one configuration')
  const arms = configs.flatMap(({ config }) =>
    inputs.map((input) => ({ config: { ...config, label: sizeLabel(config, input) }, input: input.file })),
  )
  // Warm-ups of each configuration's smallest size only: it warms the host for the larger sizes, whose warm-up would
  // cost as much as a measured run (a 10,000-record one ~40 s on an H100).
  const policy = m.policy ?? SUITE_POLICY
  const warmupArms = configs.map(({ config }) => sizeLabel(config, inputs[0]!))
  const journal = journalFor(
    ctx,
    capacityPurpose(
      configs.map((c) => c.config),
      inputs,
      purposeSuffix,
    ),
  )
  const analysis = analysisOptions(ctx.profile.name, plannedLooks(rule, budgetGpuMinutes > 0))
  const running = o.onAnswer
    ? runningAnswer({
        configs,
        thresholds: ctx.thresholds,
        analysis,
        plannedRuns: arms.length * policy.maxRuns,
        print: o.onAnswer,
      })
    : null
  configs.forEach(({ config }, c) => {
    for (const input of inputs) running?.register(sizeLabel(config, input), c, input)
  })
  const measured = await measureInterleaved(arms, {
    ...m,
    policy: { ...policy, warmupArms },
    profile: ctx.profile,
    workDir: ctx.workDir,
    journal,
    ...(running && { onRun: running.onRun }),
  })
  const byConfig: CapacityMeasurements = configs.map(({ config, gpuCount }, c) => ({
    config,
    gpuCount,
    bySize: measured.slice(c * inputs.length, (c + 1) * inputs.length),
  }))
  byConfig.inputs = [...inputs]
  if (budgetGpuMinutes <= 0) return byConfig
  const resolver = ctx.inputs
  // The held-out check's GPU-minutes are kept from the design: its cheapest size, as the planned runs project it.
  const reserve = o.direct
    ? heldOutReserve(byConfig, inputs, ctx.thresholds, heldOutGpus(byConfig, o.direct), o.direct)
    : { gpuMinutes: 0, wallMs: 0 }
  byConfig.heldOutReserve = reserve.gpuMinutes
  byConfig.heldOutReserveMs = reserve.wallMs
  const { deadlineMs } = o
  byConfig.sequential = await topUp(byConfig, {
    inputs: byConfig.inputs,
    thresholds: ctx.thresholds,
    budgetGpuMinutes: Math.max(0, budgetGpuMinutes - reserve.gpuMinutes),
    ...(deadlineMs !== undefined && { timeLeftMs: () => deadlineMs - Date.now() - reserve.wallMs }),
    ciTarget: capacityTargets(ctx.profile.name).ciHalfWidth,
    rule,
    analysis,
    // Sizes beyond the measured ones where the resolver can make them (a suite given only a provenance reader cannot).
    ...(resolver?.resize && resolver.sizeLimit
      ? {
          sizes: {
            resize: (base: ResolvedInput, records: number) => resolver.resize!(base, records),
            maxRecords: designLimit(resolver.sizeLimit(inputs.at(-1)!), inputs.at(-1)!.records, o.direct),
          },
        }
      : {}),
    measure: async (c, input, runs, k) => {
      const at = byConfig.inputs!.indexOf(input)
      // A size this configuration has runs at gets top-ups, one label each; a size new to it is an arm of its own.
      const known = at >= 0 && c.bySize[at]!.observations.length > 0
      const label = known ? `${sizeLabel(c.config, input)} top-up ${k}` : sizeLabel(c.config, input)
      running?.register(label, byConfig.indexOf(c), input)
      running?.plan(runs)
      const [one] = await measureInterleaved([{ config: { ...c.config, label }, input: input.file }], {
        ...m,
        policy: { ...policy, warmupRuns: 0, minRuns: runs, maxRuns: runs },
        profile: ctx.profile,
        workDir: ctx.workDir,
        // Each decision's runs have a label of their own: a continuation reuses the ones kept, in the order they ran.
        journal,
        ...(running && { onRun: running.onRun }),
      })
      return one!
    },
  })
  return byConfig
}

/**
 * The largest size the design may add: within the sample, and MIN_SIZE_RATIO below the smallest size held out for
 * the check, so the design never fits the size its check runs at (issue 58: on a 64-record sample with sizes 16 / 32
 * it measured 64 records 20 times and read UNCHECKED; on 1,002 records it fitted 1,002). Where no size can be held
 * out, the sample.
 */
export function designLimit(sampleRecords: number, largestPlanned: number, direct: CapacityOptions['direct']): number {
  if (!direct) return sampleRecords
  const held = (direct.records ?? (Number.isFinite(sampleRecords) ? [sampleRecords] : [])).filter(
    (r) => r > largestPlanned && r <= sampleRecords,
  )
  return held.length === 0 ? sampleRecords : Math.min(sampleRecords, Math.floor(Math.min(...held) / MIN_SIZE_RATIO))
}

/** The largest size's measurement of each configuration: what the measured-size scaling verdicts read. */
export function largestArms(measured: readonly ConfigMeasurements[]): MeasuredConfiguration[] {
  return measured.map((c) => c.bySize.at(-1)!)
}

/**
 * Measures (or reads from the cache), analyses and writes the capacity record. When the inputs are subsets of the
 * user's own sample, its whole size is projected to as well: "will my sample finish in time" at its own size.
 */
export async function runCapacitySuite(
  ctx: SuiteContext,
  m: Omit<SuiteMeasure, 'input'>,
  configs: readonly SizedConfiguration[],
  inputs: readonly ResolvedInput[],
  /**
   * The design's GPU-minutes (default 0: the planned runs only: the GPU suites pass
   * VIRNUCPRO_BENCH_CAPACITY_BUDGET_GPU_MIN less a minute for what the runs' wall times do not hold), its stop rule
   * (VIRNUCPRO_BENCH_CAPACITY_STOP) and where the line after each run goes.
   */
  o: Omit<CapacityOptions, 'purposeSuffix'> = {},
): Promise<SuiteOutcome & { measured: ConfigMeasurements[] }> {
  // One question, one answer (issue 58): taken where the run holds it; under an id of its own where the run's record
  // of the same id answers another question (other sizes, input, stop rule or a smaller budget).
  const question = capacityQuestion(
    configs.map((c) => c.config),
    inputs,
    o.rule ?? 'decided',
    o.budgetGpuMinutes ?? 0,
    await answerEnvironment(ctx),
  )
  const purpose = capacityPurpose(
    configs.map((c) => c.config),
    inputs,
    '',
  )
  const answered = await answeredInRun(ctx, purpose.id, question)
  // Its own record first; else the same question answered under another name (answered.ts answerInRun).
  const taken = !o.takeAnswered
    ? null
    : answered.state === 'answered'
      ? answered.record
      : await answerInRun(ctx, question)
  if (taken) {
    o.onAnswer?.(answeredLine(purpose.name, taken))
    return { record: taken, path: join(ctx.resultsDir, `${taken.id}.json`), measured: [] }
  }
  const suffix = answered.state === 'other' ? answered.suffix : ''
  const line =
    answered.state === 'other'
      ? otherQuestionLine(answered.record, question, suffix)
      : answered.state === 'none'
        ? (answered.line ?? null)
        : null
  if (line !== null) {
    if (o.onAnswer) o.onAnswer(line)
    else console.log(line)
  }
  const measured = await measureCapacity(ctx, m, configs, inputs, { ...o, purposeSuffix: suffix })
  const sizes = measured.inputs ?? inputs
  const source = sizes[0]!.source
  const largest = sizes.at(-1)!.records
  const ownSize = source.source === 'user' && source.records > largest ? [source.records] : []
  const gpuCounts = o.direct ? heldOutGpus(measured, o.direct) : []
  const choice = o.direct
    ? await heldOutChoice(
        ctx,
        measured,
        sizes,
        gpuCounts,
        o.direct,
        o.budgetGpuMinutes ?? 0,
        measured.heldOutReserve,
        o.deadlineMs === undefined ? undefined : o.deadlineMs - Date.now(),
      )
    : null
  let direct =
    choice?.input && o.direct
      ? await measureDirect(ctx, m, measured, inputs, choice.input, gpuCounts, o.direct.runs, [], suffix)
      : { runs: [], heldOut: [], joined: null, gpuCounts: [] }
  // A missed check with GPU-minutes left measures further: one more run at the held-out size, so the fit it joins has
  // that size's spread (a size of one run gives the model no interval at all).
  if (choice?.input && o.direct && direct.heldOut.length > 0) {
    const look = analysisOptions(ctx.profile.name, measured.sequential?.maxLooks ?? 1)
    const missed = missedChecks(
      analyzeCapacity(measured, sizes, ctx.thresholds, [], { ...look, answerFigures: false, heldOut: direct.heldOut })
        .stats.direct ?? [],
    )
    const again = [...missed.keys()]
    // One run more of each missed configuration, at its held-out run's time, on top of all spent so far.
    const more = heldOutGpuMinutes(
      direct.heldOut.filter((h) => again.includes(h.gpuCount)).map((h) => ({ ...h, runs: 1 })),
    )
    const budget = o.budgetGpuMinutes ?? 0
    const spent = spentGpuMinutes(measured) + heldOutGpuMinutes(direct.heldOut)
    const moreMs = direct.heldOut.filter((h) => again.includes(h.gpuCount)).reduce((a, h) => a + h.medianWallMs, 0)
    const inTime = o.deadlineMs === undefined || Date.now() + moreMs <= o.deadlineMs
    if (again.length > 0 && (budget <= 0 || spent + more <= budget) && inTime)
      direct = await measureDirect(ctx, m, measured, inputs, choice.input, gpuCounts, o.direct.runs, again, suffix)
  }
  const record = await writeCapacityRecord(
    ctx,
    measured,
    sizes,
    suffix,
    ownSize,
    direct.runs,
    measured.sequential ?? null,
    direct.heldOut,
    // Read once the runs are done: the record names the target's own options for the stage that holds it back.
    o.stageOptions ?? (await readStageOptions(ctx.profile, process.env)),
    direct.joined,
    {
      plan: o.sizePlan ?? null,
      heldOut: choice && {
        records: choice.records,
        why: choice.why,
        ...(choice.jobLimit && { jobLimit: true as const }),
        gpuCounts,
        failed: direct.runs.flatMap((one, i) =>
          one.failure ? [{ gpuCount: direct.gpuCounts[i]!, reason: one.failure.reason }] : [],
        ),
      },
    },
    question,
  )
  return { ...record, measured }
}

/** The GPU counts whose configurations the held-out check runs: `gpuCounts`, else every one measured. */
const heldOutGpus = (measured: readonly ConfigMeasurements[], direct: NonNullable<CapacityOptions['direct']>) =>
  measured.map((c) => c.gpuCount).filter((k) => !direct.gpuCounts || direct.gpuCounts.includes(k))

/**
 * The user's whole sample run directly on each configuration of `direct.gpuCounts`, labelled `... seqs direct` (the
 * refit holds such runs out of its fit by default: capacity/refit.ts). None where the resolver cannot make it.
 */
async function measureDirect(
  ctx: SuiteContext,
  m: Omit<SuiteMeasure, 'input'>,
  measured: readonly ConfigMeasurements[],
  /** The planned sizes: the journal files the direct runs with the measurement's own (one partial record). */
  planned: readonly ResolvedInput[],
  whole: ResolvedInput,
  gpuCounts: readonly number[],
  runs: number,
  /** GPU counts that get one run more (a missed check measured further); the journal gives the first ones back. */
  again: readonly number[] = [],
  /** The record id's suffix (capacity/answered.ts: a question beside another under one id). */
  suffix = '',
): Promise<{ runs: MeasuredConfiguration[]; heldOut: HeldOut[]; joined: JoinOnMiss | null; gpuCounts: number[] }> {
  const out: MeasuredConfiguration[] = []
  const ranOn: number[] = []
  const heldOut: HeldOut[] = []
  const byGpuCount = new Map<number, MeasuredConfiguration>()
  for (const c of measured.filter((x) => gpuCounts.includes(x.gpuCount))) {
    const n = runs + (again.includes(c.gpuCount) ? 1 : 0)
    const policy = { ...(m.policy ?? SUITE_POLICY), warmupRuns: 0, minRuns: n, maxRuns: n }
    const label = `${sizeLabel(c.config, whole)} direct`
    const [one] = await measureInterleaved([{ config: { ...c.config, label }, input: whole.file }], {
      ...m,
      policy,
      profile: ctx.profile,
      workDir: ctx.workDir,
      journal: journalFor(
        ctx,
        capacityPurpose(
          measured.map((x) => x.config),
          planned,
          suffix,
        ),
      ),
    })
    out.push(one!)
    ranOn.push(c.gpuCount)
    byGpuCount.set(c.gpuCount, { ...one!, config: c.config })
    const walls = completedRuns(one!).map((r) => r.measured.run.wallMs)
    if (walls.length > 0)
      heldOut.push({
        label: c.config.label,
        gpuCount: c.gpuCount,
        records: whole.records,
        sequences: sequenceEquivalents(whole),
        runs: walls.length,
        medianWallMs: median(toSorted(walls, 'capacity direct walls')),
      })
  }
  return { runs: out, heldOut, joined: { input: whole, byGpuCount }, gpuCounts: ranOn }
}

/** The sizes a measurement fitted and held out, and why (stats.sizes: what the answer says it chose). */
export interface SizeChoice {
  plan: SizePlan | null
  heldOut: HeldOutChoice | null
}

/**
 * Analyses measurements (one per size, parallel to `inputs`) and writes the capacity record; `naming` tells two
 * capacity records of one run apart (a suffix), or names the record outright (a known answer's: capacity/purpose.ts).
 */
export function writeCapacityRecord(
  ctx: SuiteContext,
  measured: readonly ConfigMeasurements[],
  inputs: readonly ResolvedInput[],
  naming: string | RecordName = '',
  extraSizes: readonly number[] = [],
  /** Runs kept in the record but not fitted (a size measured directly to check the projection against). */
  heldOut: readonly MeasuredConfiguration[] = [],
  /** The sequential design's outcome, when it ran. */
  sequential: TopUpState | null = null,
  /** The held-out runs as checks read them (their size, median): each set against the projection there. */
  direct: readonly HeldOut[] = [],
  /** The target's options per stage (pipeline/target-help.ts): what the bottleneck report names without a study. */
  stageOptions: StageOptionsRead | null = null,
  /** The held-out runs by configuration: where a check misses, they join the fit (issue 48). */
  joinOnMiss: JoinOnMiss | null = null,
  /** The sizes it fitted and held out, and why. */
  sizeChoice: SizeChoice | null = null,
  /** What the record answers (capacity/answered.ts): a later measurement takes it only for the same question. */
  question: CapacityQuestion | null = null,
): Promise<SuiteOutcome> {
  // Judged at the level the design's looks spent (one look where no design ran: 95%).
  const base = analysisOptions(ctx.profile.name, sequential?.maxLooks ?? 1)
  const needs = new Map((sequential?.undecided ?? []).map((u) => [u.id, u.needs]))
  const options = { ...base, decide: { ...base.decide, needs }, heldOut: direct }
  // A missed check: the checks and undecided questions of the model that did not see the held-out runs, its figures
  // refitted with those runs joined (capacity/checked-analysis.ts).
  const { stats, verdicts } = checkedAnalysis(measured, inputs, ctx.thresholds, extraSizes, options, joinOnMiss)
  const all = [...measured.flatMap((c) => c.bySize), ...heldOut]
  const reason = failureReason(all)
  return writeSuiteRecord(
    ctx,
    {
      ...capacityPurpose(
        measured.map((c) => c.config),
        inputs,
        naming,
      ),
      measurements: all,
      stats: {
        ...stats,
        sequential,
        ...(sizeChoice && { sizeChoice }),
        ...(question && { question }),
        ...stageOptions,
      },
      verdicts,
      ...(reason ? { state: 'failed' as const, reason } : {}),
    },
    // The same question's record a job limit cut short: this one, its continuation, takes its place.
    (stored) => question !== null && cutByJobLimit(stored) && questionOf(stored)?.key === question.key,
  )
}
