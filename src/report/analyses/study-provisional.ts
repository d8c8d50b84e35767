/**
 * A settings study stopped before its record had figures (a partial record: its kept runs, `stats` empty), read back
 * into the standings so far: per round the settings it ran, and per setting its screening medians. Nothing is judged:
 * no setting has left, none is best, and outputs are not compared yet (the study compares them when a round ends).
 * Every output reads it PROVISIONAL, as it reads a capacity measurement in flight.
 */
import { estimate } from '../../engine/stage-metrics.ts'
import type { ResultRecord } from '../../results/schema/index.ts'
import { DEFAULT_LABEL, parseScreeningLabel } from '../../study/screen.ts'
import type { StudyRow, StudyScreening } from '../../study/stats.ts'
import type { StudyReadStats } from './study-stats.ts'

type Run = ResultRecord['runs'][number]

/** The standings of the screening runs a partial record kept; null when none of its runs is a screening run. */
export function provisionalStudyStats(record: ResultRecord): StudyReadStats | null {
  const runs = record.runs.flatMap((run) => {
    const label = parseScreeningLabel(run.label)
    return label && !label.warmup ? [{ run, ...label }] : []
  })
  if (runs.length === 0) return null
  const settings = [...new Set([DEFAULT_LABEL, ...runs.map((r) => r.setting)])]
  const rounds = [...new Set(runs.map((r) => r.round))].sort((a, b) => a - b)
  const defaultArgs = argsOf(runs.find((r) => r.setting === DEFAULT_LABEL)?.run)
  const rows: StudyRow[] = settings.map((setting) => {
    const mine = runs.filter((r) => r.setting === setting)
    const screening = rounds.flatMap((round) => {
      const inRound = mine.filter((r) => r.round === round)
      return inRound.length > 0
        ? [
            screeningOf(
              inRound.map((r) => r.run),
              round,
              inRound[0]!.records,
            ),
          ]
        : []
    })
    const last = screening.at(-1)
    const own = argsOf(mine[0]?.run)
    return {
      label: setting,
      extraArgs: setting === DEFAULT_LABEL ? [] : withoutPrefix(own, defaultArgs),
      isDefault: setting === DEFAULT_LABEL,
      screening,
      outputs:
        setting === DEFAULT_LABEL || !last
          ? null
          : { equal: null, records: last.records, detail: 'not compared yet: the study stopped inside this round' },
      dropped: null,
      capacity: null,
      flips: [],
    }
  })
  return {
    grid: {},
    screenedOn: record.name.replace(/^settings study of .* on /, ''),
    production: record.thresholds.perf01.productionSequences,
    rounds: rounds.map((round) => {
      const inRound = runs.filter((r) => r.round === round)
      return { round, records: inRound[0]!.records, settings: [...new Set(inRound.map((r) => r.setting))] }
    }),
    best: null,
    rows,
    sameAsDefault: 0,
  }
}

function screeningOf(runs: readonly Run[], round: number, records: number): StudyScreening {
  const walls = runs.filter((r) => r.run.exitClass === 'completed').map((r) => r.run.wallMs)
  const e = estimate(walls, `study round ${round} wallMs`)
  return {
    round,
    records,
    runs: walls.length,
    wallMs: e && { median: e.median, low: e.ci?.low ?? null, high: e.ci?.high ?? null },
  }
}

/** The run's extra options as the record stores them (one string, space-joined). */
const argsOf = (run: Run | undefined): string[] => {
  const text = run?.config.extraArgs
  return typeof text === 'string' && text.length > 0 ? text.split(' ') : []
}

/** The options a setting adds: its arguments after the default's, when they start with them. */
function withoutPrefix(args: readonly string[], prefix: readonly string[]): string[] {
  const starts = prefix.every((a, i) => args[i] === a)
  return starts ? args.slice(prefix.length) : [...args]
}
