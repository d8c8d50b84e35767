/**
 * From bottleneck to option: for each stage the bottleneck rules flag, the target's own options for that stage, as the
 * settings study read them from the target's `predict --help` (pipeline/stage-options.ts), each with what the study
 * measured of it (bottleneck-study.ts). Without a study, no option is named (none was read here) and the
 * recommendation says how to run one. Pure: the report set's records in, one advice per flagged stage out.
 */
import { flagsOfEntry, stagesOfOption, WHOLE_PIPELINE } from '../../pipeline/stage-options.ts'
import { WHOLE_RUN_STAGE } from './bottleneck-rules.ts'
import { measuredOption, type OptionEffect, type StudyRead, type StudyView } from './bottleneck-study.ts'

export interface OptionAdvice {
  /** Every spelling, as the target's help prints them (`-w, --num-workers`). */
  flag: string
  /** The target's help text for it ('' where the help was not read: an option of the study's grid). */
  help: string
  /** `stage`: one of the stage's own options; `whole pipeline`: an option naming no stage that the study varied. */
  scope: 'stage' | typeof WHOLE_PIPELINE
  effect: OptionEffect | 'not-varied'
  /** What the settings study measured of it, in words; null where it did not vary it. */
  measured: string | null
}

export interface StageAdvice {
  stage: string
  /** The settings study cited (the newest that reads); null without one. */
  study: { recordId: string; name: string; provisional: boolean } | null
  options: OptionAdvice[]
  /** What to do about the stage, in one line. */
  summary: string
}

/** How to measure a stage's options: the settings study over a grid of them (benchmarks/study.gpu.test.ts). */
export const STUDY_COMMAND =
  'VIRNUCPRO_BENCH_SWEEP=\'{"--option":[...]}\' npx vitest run --project gpu benchmarks/study.gpu.test.ts'

/** The stages flagged in any group, in first-flagged order; the whole-run flags (GPUs not asked for) name none. */
export function flaggedStages(groups: readonly { flags: readonly { stage: string }[] }[]): string[] {
  const stages = new Set<string>()
  for (const g of groups) for (const f of g.flags) if (f.stage !== WHOLE_RUN_STAGE) stages.add(f.stage)
  return [...stages]
}

const key = (stage: string) => stage.toLowerCase().replace(/[^a-z0-9]+/g, '')

type Entry = { flag: string; help: string }

/**
 * The stage's own options and the whole pipeline's, from the study's `stageOptions`; where the study could not read
 * the help, its grid's options placed by their flags' words alone.
 */
function entriesFor(stage: string, study: StudyView): { own: Entry[]; whole: Entry[] } {
  if (study.stageOptions.length > 0) {
    const of = (name: string) => study.stageOptions.find((g) => key(g.stage) === key(name))?.options ?? []
    return { own: of(stage), whole: of(WHOLE_PIPELINE) }
  }
  const own: Entry[] = []
  const whole: Entry[] = []
  for (const flag of Object.keys(study.stats.grid)) {
    const option = { flags: [flag], help: '' }
    if (stagesOfOption(option, [stage]).length > 0) own.push({ flag, help: '' })
    else if (stagesOfOption(option).length === 0) whole.push({ flag, help: '' })
  }
  return { own, whole }
}

function adviceOf(entry: Entry, scope: OptionAdvice['scope'], study: StudyView): OptionAdvice {
  // A switch pair's grid key names both its sides (`--x/--no-x`), any other key the option itself.
  const flags = flagsOfEntry(entry.flag)
  const gridKey = Object.keys(study.stats.grid).find((k) => k.split('/').some((f) => flags.includes(f)))
  const measured = gridKey === undefined ? null : measuredOption(study.stats, gridKey)
  return { ...entry, scope, effect: measured?.effect ?? 'not-varied', measured: measured?.text ?? null }
}

const flagsOf = (list: readonly OptionAdvice[]) => list.map((o) => o.flag).join('; ')

/**
 * An option as a grid names it: its first long spelling, a switch pair as `--x/--no-x` (the grid's key for one, issue
 * 56: its positive side alone would be refused as one side of a pair).
 */
function longSpelling(o: Pick<OptionAdvice, 'flag'>): string {
  const flags = flagsOfEntry(o.flag)
  const long = flags.find((f) => f.startsWith('--')) ?? flags[0] ?? o.flag
  return flags.includes(`--no-${long.slice(2)}`) ? `${long}/--no-${long.slice(2)}` : long
}

function summaryOf(study: StudyView, own: readonly OptionAdvice[], whole: readonly OptionAdvice[]): string {
  // A study record's name says what it is ("settings study of --x on 2 GPUs"): quoted as it stands.
  const cited = `study '${study.name}'${study.provisional ? ' (PROVISIONAL: stopped mid-way)' : ''}`
  const wholeNote = whole.length > 0 ? ` It varied whole-pipeline options too: ${flagsOf(whole)}.` : ''
  const unread =
    study.stageOptions.length === 0
      ? ` The study did not read the target's options (${study.stageOptionsProblem ?? 'no reason recorded'}): only its grid's are named.`
      : ''
  if (own.length === 0)
    return `The target's predict --help names no option of this stage's own (${cited}).${unread}${wholeNote}`
  const varied = own.filter((o) => o.effect !== 'not-varied')
  const rest = own.filter((o) => o.effect === 'not-varied')
  const restNote = rest.length > 0 && varied.length > 0 ? ` Not varied: ${flagsOf(rest)}.` : ''
  let head: string
  if (varied.length === 0) {
    // A grid of every option of the stage, each as a grid names it (longSpelling): the user fills in the values.
    const grid = own.map((o) => `"${longSpelling(o)}":[...]`).join(',')
    head = `The ${cited} varied none of this stage's options (${flagsOf(own)}): measure them with ${STUDY_COMMAND.replace('"--option":[...]', grid)}.`
  } else if (varied.some((o) => o.effect === 'faster'))
    head = `The ${cited} measured ${flagsOf(varied.filter((o) => o.effect === 'faster'))} faster than the default.`
  else if (varied.every((o) => o.effect === 'no-change'))
    head = `No option of this stage that the ${cited} varied changes anything measurable: ${flagsOf(varied)}.`
  else head = `The ${cited} varied ${flagsOf(varied)}: none measured faster than the default.`
  return `${head}${restNote}${unread}${wholeNote}`
}

/**
 * The advice for one flagged stage from the newest study; without one, the stage's own options as a capacity record
 * read them from the target's help (`known`), none of them measured.
 */
export function stageAdvice(
  stage: string,
  read: StudyRead,
  known: readonly { stage: string; options: readonly Entry[] }[] | null = null,
): StageAdvice {
  if (read === null) {
    const own = known?.find((g) => key(g.stage) === key(stage))?.options ?? []
    const options = own.map((e) => ({ ...e, scope: 'stage' as const, effect: 'not-varied' as const, measured: null }))
    const grid = options.map((o) => `"${longSpelling(o)}":[...]`).join(',')
    return {
      stage,
      study: null,
      options,
      summary:
        options.length > 0
          ? `No settings study in these results. The target's own options for this stage (its predict --help): ${flagsOf(options)}; measure them with ${STUDY_COMMAND.replace('"--option":[...]', grid)}.`
          : `No settings study in these results: measure this stage's options (read from the target's predict --help) with ${STUDY_COMMAND}.`,
    }
  }
  if (read.state === 'unreadable')
    return { stage, study: null, options: [], summary: `${read.problem}: run the study again with ${STUDY_COMMAND}.` }
  const { study } = read
  const { own, whole } = entriesFor(stage, study)
  const ownAdvice = own.map((e) => adviceOf(e, 'stage', study))
  const wholeAdvice = whole.map((e) => adviceOf(e, WHOLE_PIPELINE, study)).filter((o) => o.effect !== 'not-varied')
  return {
    stage,
    study: { recordId: study.recordId, name: study.name, provisional: study.provisional },
    options: [...ownAdvice, ...wholeAdvice],
    summary: summaryOf(study, ownAdvice, wholeAdvice),
  }
}
