/**
 * An answer's state, in words every output starts with. While it measures: `PROVISIONAL (n of m runs)`. Once it
 * stopped (issue 48): `FINAL` only where its held-out check fell inside, `UNDECIDED (held-out check missed)` where it
 * missed, `UNCHECKED (no held-out run)` where it had none. A stopped answer's headline also says how it stopped and
 * where that left its verdicts (issue 44: `FINAL` beside `undecided against 10 h` read as a contradiction):
 * `FINAL (design finished: 1 of 4 verdicts undecided)`, or `FINAL (judged once, no design: ...)` for a measurement
 * that ran no design; each undecided verdict then says why on a line of its own (capacity/answer-reasons.ts).
 */

/** Whether the measurement stopped, and how its held-out check went (capacity/answer.ts AnswerStatus). */
export interface StateInput {
  final: boolean
  keptRuns: number
  plannedRuns: number | null
  check?: 'inside' | 'missed' | 'unchecked'
}

/** The state's word and its own reason (`held-out check missed`, `6 of 12 runs`), if any. */
function stateOf(status: StateInput): { word: string; why: string | null } {
  if (!status.final) return { word: 'PROVISIONAL', why: `${status.keptRuns} of ${status.plannedRuns ?? '?'} runs` }
  if (status.check === 'missed') return { word: 'UNDECIDED', why: 'held-out check missed' }
  if (status.check === 'unchecked') return { word: 'UNCHECKED', why: 'no held-out run' }
  return { word: 'FINAL', why: null }
}

const withWhy = (word: string, why: readonly string[]) => (why.length ? `${word} (${why.join('; ')})` : word)

/** `FINAL`, `PROVISIONAL (6 of 12 runs)`, `UNDECIDED (held-out check missed)`, `UNCHECKED (no held-out run)`. */
export function statusTextOf(status: StateInput): string {
  const { word, why } = stateOf(status)
  return withWhy(word, why ? [why] : [])
}

/** `all 4 verdicts decided`, `1 of 4 verdicts undecided`, `its 1 verdict decided`, `no verdict judged`. */
export function verdictStatesText(undecided: number, judged: number): string {
  if (judged === 0) return 'no verdict judged'
  if (undecided === 0) return judged === 1 ? 'its 1 verdict decided' : `all ${judged} verdicts decided`
  return `${undecided} of ${judged} verdict${judged === 1 ? '' : 's'} undecided`
}

/**
 * The head of the answer's sentence: the state as statusTextOf says it, and once stopped how (`design finished`, or
 * `judged once, no design`) with its verdicts' states, in one pair of brackets.
 * @param design whether a design ran (its record keeps one)
 */
export function headlineOf(status: StateInput, design: boolean, undecided: number, judged: number): string {
  const { word, why } = stateOf(status)
  if (!status.final) return withWhy(word, why ? [why] : [])
  const how = `${design ? 'design finished' : 'judged once, no design'}: ${verdictStatesText(undecided, judged)}`
  return withWhy(word, [...(why ? [why] : []), how])
}
