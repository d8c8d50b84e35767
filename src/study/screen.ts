/**
 * The study's screen, measured: each round runs the default and the settings still in, interleaved (A B C A B C: drift
 * falls on every arm), a few runs each at the round's size, then judges it (halving.ts). Every arm has a label of its
 * own per round, through the study record's run journal: a continuation after a kill is given back the runs kept and
 * so makes the same choices, measuring only what is missing.
 */
import type { Configuration } from '../engine/configuration.ts'
import type { SuiteContext } from '../engine/context.ts'
import {
  completedRuns,
  type MeasuredConfiguration,
  measureInterleaved,
  SUITE_POLICY,
} from '../engine/measure-configuration.ts'
import type { JournalOptions } from '../engine/measurement-journal.ts'
import type { SuiteMeasure } from '../engine/record.ts'
import { estimate } from '../engine/stage-metrics.ts'
import type { ResolvedInput } from '../input/resolver.ts'
import { type PriorRun, screenForecastText, warmupForecastText } from './forecast.ts'
import { type Contender, judgeRound, roundsFor, screenPlan, sizeOfRound } from './halving.ts'
import { compareOutputs } from './outputs.ts'
import type { StudyDrop, StudyOutputs, StudyRound, StudyScreening } from './stats.ts'

/** One setting of the grid: its label, the options it adds, and the screened configuration with them. */
export interface StudySetting {
  label: string
  optionArgs: string[]
  /** Flags of the default's command line this setting takes away (`--parallel` false); absent: none. */
  takenAway?: string[]
  config: Configuration
}

export interface ScreenOptions {
  /** The default (the screened configuration as it is) and the settings, in the grid's order. */
  base: Configuration
  settings: readonly StudySetting[]
  /** The sizes rounds run at, smallest first (sizeOfRound). */
  ladder: readonly ResolvedInput[]
  /** Measured runs of each arm a round (the first round warms the default up once before them). */
  runsPerRound: number
  journal: JournalOptions
  /** Where the plan before the first run and a line after each run go; absent: nowhere. */
  say?: (line: string) => void
  /** A run measured before the screen (the capacity probe), which the plan's time forecast stands on; null: none. */
  prior?: PriorRun | null
}

/** What the screen found per setting, and the winner (null when every setting left). */
export interface ScreenOutcome {
  rounds: StudyRound[]
  screening: Map<string, StudyScreening[]>
  outputs: Map<string, StudyOutputs>
  dropped: Map<string, StudyDrop>
  winner: string | null
  /** Every round's measurement, default first in each: what the study record keeps. */
  measured: MeasuredConfiguration[]
}

export const DEFAULT_LABEL = 'default'
const armLabel = (label: string, input: ResolvedInput, round: number) =>
  `${label}, ${input.records.toLocaleString('en-US')} seqs, round ${round}`

/** A screening run's label (`<setting>, 1,000 seqs, round 2 run 1`) read back: what a partial study is rebuilt from. */
export function parseScreeningLabel(
  label: string,
): { setting: string; records: number; round: number; warmup: boolean } | null {
  const m = /^(.+), ([\d,]+) seqs, round (\d+) (run|warm-up) \d+$/.exec(label)
  if (!m) return null
  return { setting: m[1]!, records: Number(m[2]!.replaceAll(',', '')), round: Number(m[3]), warmup: m[4] === 'warm-up' }
}

/** Runs the rounds until one setting is left (or none). Run failures are data; nothing here throws for them. */
export async function screenSettings(
  ctx: SuiteContext,
  m: Omit<SuiteMeasure, 'input'>,
  o: ScreenOptions,
): Promise<ScreenOutcome> {
  if (o.runsPerRound < 1) throw new RangeError(`a settings study needs >= 1 run a round, got ${o.runsPerRound}`)
  const out: ScreenOutcome = {
    rounds: [],
    screening: new Map(),
    outputs: new Map(),
    dropped: new Map(),
    winner: null,
    measured: [],
  }
  let alive = [...o.settings]
  const last = roundsFor(alive.length)
  const plan = screenPlan(alive.length, o.runsPerRound)
  const startedMs = performance.now()
  let done = 0
  const roundRecords = plan.perRound.map((_, i) => sizeOfRound(o.ladder, i + 1).records)
  // Without a run before the screen, the time is forecast once the first round's warm-up has ended.
  let forecastPending = !o.prior
  o.say?.(
    `settings study: ${alive.length} setting(s) and the default, at most ${plan.runs} screening run(s) in ${plan.rounds} round(s) (${plan.perRound.join(' + ')}), then the capacity answers of the default and the best; ${screenForecastText(o.prior ?? null, plan.perRound, roundRecords)}`,
  )
  for (let round = 1; alive.length > 0; round++) {
    const input = sizeOfRound(o.ladder, round)
    // This round's run times: the pace the runs left are forecast at (later rounds run larger sizes: at least that).
    const roundWallsMs: number[] = []
    const arms = [{ label: DEFAULT_LABEL, config: o.base }, ...alive].map((s) => ({
      config: { ...s.config, label: armLabel(s.label, input, round) },
      input: input.file,
    }))
    const policy = m.policy ?? SUITE_POLICY
    const measured = await measureInterleaved(arms, {
      ...m,
      policy: {
        ...policy,
        warmupRuns: round === 1 ? 1 : 0,
        warmupArms: [arms[0]!.config.label],
        minRuns: o.runsPerRound,
        maxRuns: o.runsPerRound,
      },
      profile: ctx.profile,
      workDir: ctx.workDir,
      journal: o.journal,
      onRun: (arm, observation, reused) => {
        m.onRun?.(arm, observation, reused)
        done++
        const run = observation.measured
        const elapsedMin = (performance.now() - startedMs) / 60_000
        roundWallsMs.push(run.run.wallMs)
        const paceMs = [...roundWallsMs].sort((a, b) => a - b)[Math.floor(roundWallsMs.length / 2)]!
        const leftMin = (Math.max(0, plan.runs - done) * paceMs) / 60_000
        o.say?.(
          `settings study round ${round} of at most ${plan.rounds}: ${run.label}: ${(run.run.wallMs / 1000).toFixed(1)} s${reused ? ' (kept)' : ''}; run ${done} of at most ${plan.runs}, ${elapsedMin.toFixed(1)} min so far, at least about ${leftMin.toFixed(1)} min left at this round's pace (later rounds run larger sizes)`,
        )
        if (forecastPending && run.warmup) {
          forecastPending = false
          const warmup = { records: input.records, wallMs: run.run.wallMs }
          o.say?.(warmupForecastText(warmup, plan.perRound, roundRecords))
        }
      },
    })
    out.measured.push(...measured)
    out.rounds.push({ round, records: input.records, settings: [DEFAULT_LABEL, ...alive.map((s) => s.label)] })
    const [reference, ...rest] = measured
    note(out.screening, DEFAULT_LABEL, screeningOf(reference!, round, input))
    const contenders: Contender[] = []
    for (const [at, s] of alive.entries()) {
      const mine = rest[at]!
      note(out.screening, s.label, screeningOf(mine, round, input))
      const outputs = await compareOutputs(reference!, mine, input.records, ctx.thresholds)
      out.outputs.set(s.label, outputs)
      const wall = out.screening.get(s.label)!.at(-1)!.wallMs
      contenders.push({
        label: s.label,
        medianWallMs: wall?.median ?? null,
        failure: mine.failure
          ? `${mine.failure.label} ended as ${mine.failure.exitClass}: ${mine.failure.reason}`
          : null,
        outputsEqual: outputs.equal,
        outputsDetail: outputs.detail,
      })
    }
    const judged = judgeRound(contenders, round, input.records)
    for (const d of judged.dropped) out.dropped.set(d.label, d.drop)
    alive = judged.kept.map((label) => alive.find((s) => s.label === label)!)
    if (alive.length <= 1 || round >= last) break
  }
  out.winner = alive[0]?.label ?? null
  return out
}

function note(map: Map<string, StudyScreening[]>, label: string, entry: StudyScreening) {
  map.set(label, [...(map.get(label) ?? []), entry])
}

function screeningOf(m: MeasuredConfiguration, round: number, input: ResolvedInput): StudyScreening {
  const runs = completedRuns(m).map((r) => r.measured.run.wallMs)
  const e = estimate(runs, `${m.config.label} wallMs`)
  return {
    round,
    records: input.records,
    runs: runs.length,
    wallMs: e && { median: e.median, low: e.ci?.low ?? null, high: e.ci?.high ?? null },
  }
}
