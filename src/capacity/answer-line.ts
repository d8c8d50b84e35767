/**
 * The console's lines after each kept run (capacity/running-answer.ts): the status, each GPU count's 6 M hours, k
 * against 1, how many verdicts are decided so far and at which level, then, for each UNDECIDED the line shows, why and
 * what would decide it on a line of its own (issue 44). What the line does not show (45 K, PERF-02) waits for the
 * answer's own lines, so a design's dozen runs print a handful of lines each, not every verdict's reason.
 */
import type { CapacityAnswer } from './answer.ts'
import { figureText } from './answer.ts'
import { reasonLine } from './answer-reasons.ts'
import { decisionWord } from './decisions.ts'

const millions = (n: number) => (n >= 1e6 ? `${n / 1e6} M` : n >= 1e3 ? `${n / 1e3} K` : String(n))

/** Indent of a reason line under the line it explains (the reports' terminal lines indent theirs the same). */
export const REASON_INDENT = 'capacity   '

/** The line itself: `capacity PROVISIONAL (9 of 12 runs): 6 M: 1 GPU 22.1 h [18.3, 28.3] FAIL; ...`. */
export function answerLine(a: CapacityAnswer): string {
  const open = a.decisions.filter((d) => d.state === 'undecided').length
  const gpus = a.gpus.map(
    (g) => `${g.label} ${figureText(g.productionH, 'h')} ${g.production ? decisionWord(g.production) : '-'}`,
  )
  const cmps = a.comparisons.map(
    (c) => `${c.gpuCount}-vs-1 ${figureText(c.speedup, 'x', 2)} ${c.state ? decisionWord(c.state) : '-'}`,
  )
  return `capacity ${a.statusText}: ${millions(a.production)}: ${[...gpus, ...cmps].join('; ') || 'no fit yet'}; ${a.decisions.length - open} of ${a.decisions.length} verdicts decided [${a.ciText}]`
}

/** The line, then the reason of each UNDECIDED it shows (6 M per GPU count, k against 1), one line each. */
export function answerLines(a: CapacityAnswer): string[] {
  const shown = new Set([
    ...a.gpus.map((g) => `capacity/${g.gpuCount}/perf01/${a.production}`),
    ...a.comparisons.map((c) => `capacity/${c.gpuCount}/speedup/${a.production}`),
  ])
  const reasons = a.open.filter((o) => shown.has(o.id)).map((o) => `${REASON_INDENT}${reasonLine(o, a.status.final)}`)
  return [answerLine(a), ...reasons]
}
