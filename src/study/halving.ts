/**
 * Successive halving, the settings study's screen: every setting runs a few short runs at a small size; those whose
 * runs failed or whose outputs are not the default's leave, and of the rest the slower half; the survivors run again
 * at the next (larger) size, until one setting is left. Cheap sizes judge many settings, dear ones only the few that
 * could win. The default runs in every round but never competes: it is what outputs are compared with, and what the
 * winner is measured beside afterwards.
 */
import type { StudyDrop } from './stats.ts'

/** One setting as a round measured it. */
export interface Contender {
  label: string
  /** Median wall time of its completed runs this round; null when none completed. */
  medianWallMs: number | null
  /** The run that did not complete, in words; null when every run did. */
  failure: string | null
  /** Its outputs against the default's this round: true equal, false not, null nothing to compare. */
  outputsEqual: boolean | null
  outputsDetail: string
}

export interface RoundOutcome {
  /** Labels going on to the next round, fastest first. */
  kept: string[]
  dropped: { label: string; drop: StudyDrop }[]
}

/** How many of `n` contenders a round keeps: half, rounded up, and at least one while any is left. */
export const keptOf = (n: number): number => Math.ceil(n / 2)

/** The rounds a screen of `n` contenders takes at most: halving until one is left. */
export const roundsFor = (n: number): number => (n <= 1 ? 1 : Math.ceil(Math.log2(n)) + 1)

/**
 * Judges one round: who leaves (failed, outputs not the default's, nothing to compare, then the slower half) and who
 * goes on. Ties in the median keep the earlier contender (the grid's order), so a continuation makes the same choice.
 * @param round the round's number (from 1) and size, for the drops' words.
 */
export function judgeRound(contenders: readonly Contender[], round: number, records: number): RoundOutcome {
  const dropped: RoundOutcome['dropped'] = []
  const drop = (label: string, why: StudyDrop['why'], detail: string) =>
    dropped.push({ label, drop: { round, records, why, detail } })
  const standing: Contender[] = []
  for (const c of contenders) {
    if (c.failure !== null || c.medianWallMs === null) drop(c.label, 'failed', c.failure ?? 'no run completed')
    else if (c.outputsEqual === false) drop(c.label, 'outputs-differ', c.outputsDetail)
    // A setting whose outputs could not be compared does not count: faster at what, is not known.
    else if (c.outputsEqual === null) drop(c.label, 'no-outputs', c.outputsDetail)
    else standing.push(c)
  }
  const ranked = standing
    .map((c, at) => ({ c, at }))
    .sort((a, b) => a.c.medianWallMs! - b.c.medianWallMs! || a.at - b.at)
    .map((x) => x.c)
  const keep = keptOf(ranked.length)
  const cut = ranked[keep - 1]
  for (const c of ranked.slice(keep))
    drop(
      c.label,
      'slower',
      `median ${ms(c.medianWallMs!)} against ${ms(cut!.medianWallMs!)} for the slowest of the ${keep} kept`,
    )
  return { kept: ranked.slice(0, keep).map((c) => c.label), dropped }
}

const ms = (value: number) => `${Math.round(value).toLocaleString('en-US')} ms`

/**
 * The size each round runs at: the ladder's sizes in turn, then its largest again for any round beyond them.
 * @throws RangeError for an empty ladder or a round below 1.
 */
export function sizeOfRound<T>(ladder: readonly T[], round: number): T {
  if (ladder.length === 0) throw new RangeError('a settings study needs at least one screening size')
  if (!Number.isInteger(round) || round < 1) throw new RangeError(`round ${round}: rounds count from 1`)
  return ladder[Math.min(round, ladder.length) - 1]!
}

/**
 * The most runs a screen of `settings` takes: each round the default and the settings still in, `runsPerRound` each,
 * the first round one warm-up of the default more; settings halve (keptOf) until one is left. Fewer when a round drops
 * more (failed, outputs not the default's). Said before the first run (issue 47: a 10 x 10 x 10 grid planned 2,002
 * runs, about an hour, and printed nothing during its screen).
 */
export function screenPlan(
  settings: number,
  runsPerRound: number,
): { rounds: number; runs: number; perRound: number[] } {
  const perRound: number[] = []
  let alive = settings
  // As screenSettings goes: a round, then on only while more than one is left and the rounds allow it.
  for (let round = 1; alive > 0; round++) {
    perRound.push((alive + 1) * runsPerRound + (round === 1 ? 1 : 0))
    alive = keptOf(alive)
    if (alive <= 1 || round >= roundsFor(settings)) break
  }
  return { rounds: perRound.length, runs: perRound.reduce((a, b) => a + b, 0), perRound }
}
