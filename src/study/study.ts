/**
 * The settings study (kind `study`): which of a grid of the target's options makes the sample finish in time, and
 * whether another GPU pays then. The grid is screened by successive halving on the largest GPU count held
 * (screen.ts); the winner and the default then each get the capacity answer (capacity/suite.ts: 6 M per GPU count, k
 * GPUs against 1, per stage, with intervals, decided by its design), and the study says which verdicts the winner
 * decides otherwise. A setting counts only with the default's outputs (outputs.ts).
 */

import type { CapacityStats } from '../capacity/analyze.ts'
import { type CapacityAnswer, capacityAnswer } from '../capacity/answer.ts'
import { recordStatus } from '../capacity/record-answer.ts'
import { type CapacityOptions, runCapacitySuite, type SizedConfiguration } from '../capacity/suite.ts'
import type { Configuration } from '../engine/configuration.ts'
import type { SuiteContext } from '../engine/context.ts'
import { journalFor } from '../engine/journal-options.ts'
import { type SuiteMeasure, type SuiteOutcome, writeSuiteRecord } from '../engine/record.ts'
import type { SweepGrid } from '../engine/sweep-grid.ts'
import type { ResolvedInput } from '../input/resolver.ts'
import { readTargetHelp, stageOptionsOf, type TargetHelp } from '../pipeline/target-help.ts'
import type { ResultRecord } from '../results/schema/index.ts'
import type { PriorRun } from './forecast.ts'
import { gridSettings } from './grid-settings.ts'
import { DEFAULT_LABEL, type ScreenOutcome, type StudySetting, screenSettings } from './screen.ts'
import { withSettingArgs } from './setting-config.ts'
import { isFlip, type StudyCapacity, type StudyRow, type StudyStats } from './stats.ts'
import { studyVerdicts } from './verdicts.ts'

export interface StudyOptions {
  grid: SweepGrid
  /** The capacity suite's configurations (1 GPU first): the default; each setting adds its options to every one. */
  configs: readonly SizedConfiguration[]
  /** Screening sizes, smallest first; the capacity answer's planned sizes. */
  ladder: readonly ResolvedInput[]
  capacityInputs: readonly ResolvedInput[]
  runsPerRound?: number
  capacity?: Omit<CapacityOptions, 'purposeSuffix'>
  /**
   * The target's `predict --help`, or why it could not be read; absent: read (pipeline/target-help.ts) before the
   * screen. The grid is checked against it, a switch pair's default state read from it, and the bottleneck report
   * names the options per stage it lists.
   */
  help?: TargetHelp
  /** Where the screen's plan and its line after each run go (the capacity answers' lines go to capacity.onAnswer). */
  say?: (line: string) => void
  /** The run measured before the study (the capacity probe), for the time forecast before its first run. */
  prior?: PriorRun | null
  /**
   * The sizes and held-out check of a winner that runs another architecture than the default (issue 56: `no
   * --parallel` runs v1.0, whose cost shows per file of proteins, not per buffer a worker): planned for its own path,
   * as the capacity file plans its v1.0 baseline, so the two are one question and the run answers it once. Absent,
   * or for a winner of the default's architecture: the default's.
   */
  winnerSizes?: (configs: readonly SizedConfiguration[]) => Promise<WinnerSizes>
}

/** A winner's own sizes and held-out check (StudyOptions.winnerSizes). */
export interface WinnerSizes {
  inputs: readonly ResolvedInput[]
  capacity: Pick<CapacityOptions, 'direct' | 'sizePlan'>
}

/** Two runs a round: a median and its spread, at half the cost of the suite's three. */
export const STUDY_RUNS_PER_ROUND = 2

/**
 * Screens the grid, measures the winner and the default to a capacity answer each, and writes the study record (the
 * two capacity records are written by the capacity suite beside it).
 * @throws RangeError for an empty configuration list or ladder; SweepGridError, before any run, for a grid that
 * parseSweepGrid refuses or that the target's help contradicts (a value for a flag, true/false for a value).
 */
export async function runStudySuite(
  ctx: SuiteContext,
  m: Omit<SuiteMeasure, 'input'>,
  o: StudyOptions,
): Promise<SuiteOutcome & { capacity: Map<string, ResultRecord> }> {
  const screened = o.configs.at(-1)
  if (!screened) throw new RangeError('a settings study needs at least one configuration')
  const base = screened.config
  // The help read once for the grid's check, the switch pairs' defaults and the bottleneck report (seconds: it runs
  // the target), before the first run.
  const help = o.help ?? (await readTargetHelp(ctx.profile, process.env))
  const grid = gridSettings(o.grid, base, help)
  for (const line of grid.defaultsUnknown) o.say?.(`settings study: ${line}`)
  const { settings } = grid
  const purpose = studyPurpose(base.label, o.grid)
  const stageOptions = stageOptionsOf(help)
  const screen = await screenSettings(ctx, m, {
    base,
    settings,
    ladder: o.ladder,
    runsPerRound: o.runsPerRound ?? STUDY_RUNS_PER_ROUND,
    journal: journalFor(ctx, purpose),
    ...(o.say && { say: o.say }),
    prior: o.prior ?? null,
  })
  const capacity = new Map<string, ResultRecord>()
  // Each answer is taken as it is where another file of the run answered the same question (capacity/answered.ts),
  // never measured a second time under another name (issues 44, 56): the default's is the capacity file's answer
  // for these configurations (the main job runs both), a `no --parallel` winner's its v1.0 baseline's.
  const answerOptions = { ...o.capacity, stageOptions, takeAnswered: true }
  capacity.set(DEFAULT_LABEL, (await runCapacitySuite(ctx, m, o.configs, o.capacityInputs, answerOptions)).record)
  const winner = settings.find((s) => s.label === screen.winner)
  if (winner) {
    const configs = withOptions(o.configs, winner)
    const asked = await winnerAsked(o, base, winner, configs)
    const options = { ...answerOptions, ...asked.capacity }
    capacity.set(winner.label, (await runCapacitySuite(ctx, m, configs, asked.inputs, options)).record)
  }
  const stats = studyStats(o, base.label, settings, screen, capacity, grid.sameAsDefault, stageOptions)
  if (grid.defaultsUnknown.length > 0) stats.defaultsUnknown = grid.defaultsUnknown
  const outcome = await writeSuiteRecord(ctx, {
    ...purpose,
    measurements: screen.measured,
    stats: { ...stats },
    verdicts: studyVerdicts(stats),
  })
  return { ...outcome, capacity }
}

/**
 * The sizes and held-out check the winner's answer is asked at: its own path's where it runs another architecture
 * than the default and the caller plans one (StudyOptions.winnerSizes), else the default's.
 */
export async function winnerAsked(
  o: Pick<StudyOptions, 'capacityInputs' | 'winnerSizes'>,
  base: Configuration,
  winner: StudySetting,
  configs: readonly SizedConfiguration[],
): Promise<{ inputs: readonly ResolvedInput[]; capacity: WinnerSizes['capacity'] | null }> {
  if (winner.config.architecture === base.architecture || !o.winnerSizes)
    return { inputs: o.capacityInputs, capacity: null }
  return o.winnerSizes(configs)
}

/** The study record's id and name: one per screened configuration and grid. */
function studyPurpose(screened: string, grid: SweepGrid) {
  const options = Object.keys(grid).join(' ')
  return {
    kind: 'study' as const,
    id: `study-${screened}-${options}`,
    name: `settings study of ${options} on ${screened}`,
  }
}

/** Every GPU count's configuration with the setting's options added, labelled with the setting. */
export function withOptions(configs: readonly SizedConfiguration[], s: StudySetting): SizedConfiguration[] {
  return configs.map(({ config, gpuCount }) => {
    const made = withSettingArgs(config, s, config.label)
    // The label names the architecture the setting runs (`no --parallel, 1 GPU, v1.0`), not the default's.
    const label =
      config.architecture && made.architecture
        ? config.label.replace(config.architecture, made.architecture)
        : config.label
    return { gpuCount, config: { ...made, label: `${s.label}, ${label}` } }
  })
}

function studyStats(
  o: StudyOptions,
  screened: string,
  settings: readonly StudySetting[],
  screen: ScreenOutcome,
  capacity: ReadonlyMap<string, ResultRecord>,
  sameAsDefaultCount: number,
  stageOptions: Pick<StudyStats, 'stageOptions' | 'stageOptionsProblem'>,
): StudyStats {
  const answers = new Map([...capacity].map(([label, r]) => [label, answerOf(r)]))
  const reference = answers.get(DEFAULT_LABEL) ?? null
  const row = (label: string, optionArgs: string[]): StudyRow => {
    const answer = answers.get(label) ?? null
    return {
      label,
      extraArgs: optionArgs,
      isDefault: label === DEFAULT_LABEL,
      screening: screen.screening.get(label) ?? [],
      outputs: screen.outputs.get(label) ?? null,
      dropped: screen.dropped.get(label) ?? null,
      capacity: answer && studyCapacity(capacity.get(label)!, answer),
      flips: answer && reference && label !== DEFAULT_LABEL ? flips(reference, answer) : [],
    }
  }
  return {
    grid: Object.fromEntries(Object.entries(o.grid).map(([k, v]) => [k, [...v]])),
    screenedOn: screened,
    production: reference?.production ?? 6_000_000,
    rounds: screen.rounds,
    best: screen.winner,
    rows: [row(DEFAULT_LABEL, []), ...settings.map((s) => row(s.label, s.optionArgs))],
    sameAsDefault: sameAsDefaultCount,
    stageOptions: stageOptions.stageOptions,
    stageOptionsProblem: stageOptions.stageOptionsProblem,
  }
}

function answerOf(record: ResultRecord): CapacityAnswer {
  return capacityAnswer(record.stats as unknown as CapacityStats, record.verdicts, recordStatus(record))
}

function studyCapacity(record: ResultRecord, a: CapacityAnswer): StudyCapacity {
  const configs = (record.stats as unknown as Partial<CapacityStats>).configurations ?? []
  // As capacity/decisions.ts reads a model: one that holds but is imprecise still decides from its wide interval.
  const unsupported = (gpuCount: number) => {
    const support = configs.find((c) => c.gpuCount === gpuCount)?.support
    return support && !support.supported && !support.precisionOnly ? support.problems.join('; ') : null
  }
  return {
    recordId: record.id,
    statusText: a.statusText,
    perGpuCount: a.gpus.map((g) => ({
      gpuCount: g.gpuCount,
      productionH: g.productionH,
      production: g.production,
      unsupported: unsupported(g.gpuCount),
    })),
    speedups: a.comparisons.map((c) => ({ ...c })),
    decisions: a.decisions.map((d) => ({ id: d.id, question: d.question, state: d.state })),
  }
}

/** The verdicts both answers decided on opposite sides (isFlip): PASS to FAIL or FAIL to PASS. */
function flips(reference: CapacityAnswer, setting: CapacityAnswer): StudyRow['flips'] {
  const before = new Map(reference.decisions.map((d) => [d.id, d.state]))
  return setting.decisions
    .filter((d) => before.has(d.id) && isFlip(before.get(d.id)!, d.state))
    .map((d) => ({ id: d.id, question: d.question, from: before.get(d.id)!, to: d.state }))
}
