// Reads a gpu-project console the way issue 44's user did: which name is given which answer, which lines call a verdict
// undecided and whether a reason follows, and whether a FINAL beside `undecided` says how its measurement stopped.
// The lines it reads are the report's (`gpu-report: capacity <name>: <headline>: ...`, src/report/render/terminal.ts)
// and the line after each run (`capacity PROVISIONAL (...): ...`, src/capacity/answer-line.ts), each followed by its
// reason lines (src/capacity/answer-reasons.ts reasonLine).

/**
 * An answer line of the report: the record's name, then its headline (FINAL (...), PROVISIONAL (...), ...); the lines
 * under it (reasons, tables) are indented, so a name never starts with a space.
 */
const ANSWER = /^gpu-report: capacity (\S.*?): ((?:FINAL|PROVISIONAL|UNDECIDED|UNCHECKED)\b(?: \([^)]*\))?): /
/** The line after a run (it names no record: one measurement's progress). */
const RUN_LINE = /^capacity (?:PROVISIONAL|FINAL|UNDECIDED|UNCHECKED)\b/
/** A reason line: an undecided verdict with why and what would decide it. */
export const REASON = /\bUNDECIDED: .+; to decide it: \S/
/** An UNCHECKED answer's reason line: why it has no check, and what would check it (capacity/held-out-status.ts). */
export const CHECK = /\bUNCHECKED, .+; to check it: \S/
/** A suite line of the report for a capacity record: its verdict and name. */
const SUITE = /^gpu-report: [A-Z-]+ +capacity +(.+?)(?: \| .*)?$/

export interface ConsoleAnswer {
  name: string
  headline: string
}

/** Every answer the report printed, by the record's name, in order. */
export function answersIn(lines: readonly string[]): ConsoleAnswer[] {
  return lines.flatMap((l) => {
    const m = ANSWER.exec(l)
    return m ? [{ name: m[1]!, headline: m[2]! }] : []
  })
}

/** The names of the capacity records the report's suite lines list. */
export const capacitySuiteNames = (lines: readonly string[]): string[] =>
  lines.flatMap((l) => {
    const m = SUITE.exec(l)
    return m ? [m[1]!] : []
  })

/** The prefix the lines of one answer's block share: the report's, or the run line's. */
const blockPrefix = (line: string) => (line.startsWith('gpu-report: capacity ') ? 'gpu-report: capacity ' : 'capacity ')

/** Index of the head of the block `i` is in (an answer line or a run line), or -1 where it is in none. */
function headOf(lines: readonly string[], i: number): number {
  const prefix = blockPrefix(lines[i]!)
  for (let j = i; j >= 0 && lines[j]!.startsWith(prefix); j--)
    if (ANSWER.test(lines[j]!) || RUN_LINE.test(lines[j]!)) return j
  return -1
}

/** Whether a line calls something undecided, beyond a status that carries its own reason (a missed check). */
const saysUndecided = (line: string) => /undecided/i.test(line.replaceAll('UNDECIDED (held-out check missed', ''))

/**
 * Lines that call a verdict undecided with no reason for it: each line saying `undecided` that is no reason line
 * itself and whose block's head (the answer or run line it belongs to, maybe itself) is not followed at once by a
 * reason line.
 */
export function undecidedWithoutReason(lines: readonly string[]): string[] {
  return lines.filter((l, i) => {
    if (!saysUndecided(l) || REASON.test(l)) return false
    const head = headOf(lines, i)
    // Issue 58: an UNCHECKED answer's own reason lines come first, then each undecided verdict's.
    let next = head + 1
    while (CHECK.test(lines[next] ?? '')) next++
    return head < 0 || !REASON.test(lines[next] ?? '')
  })
}

/** Lines where FINAL stands beside `undecided` without saying how the measurement stopped (issue 44). */
export const finalUndecidedWithoutStop = (lines: readonly string[]): string[] =>
  lines.filter(
    (l) =>
      /\bFINAL\b/.test(l) && /undecided/i.test(l) && !/\bFINAL \((design finished|judged once, no design): /.test(l),
  )

/** The levels (`99.17% CI, Bonferroni over 6 looks`) the lines name, each once. */
export const levelsIn = (lines: readonly string[]): string[] => [
  ...new Set(lines.flatMap((l) => [...l.matchAll(/\[(\d+(?:\.\d+)?% CI[^\]]*)\]/g)].map((m) => m[1]!))),
]
