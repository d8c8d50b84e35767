import { type ReadProblems, readNumber } from './log-line.ts'

/**
 * One redraw of a tqdm bar in tqdm's own layout, `{desc}: {percentage:3.0f}%|{bar}| {n}/{total} [{elapsed}<{remaining},
 * {rate}{postfix}]`: what VirNucPro's bars print (utils/progress.py passes that layout as its `bar_format`, so tqdm's
 * `TQDM_BAR_FORMAT` environment variable, which only fills in arguments a bar's code leaves out, never changes them:
 * test/fixtures/virnucpro/README.md). A bar without a total (`{n} [{elapsed}, {rate}]`) counts nothing a rate can be
 * scaled to and is not read; nor is one with unit-scaled counts (`1.2k/2.2k`), which are not exact.
 */
export interface TqdmRedraw {
  /** The bar's `desc`; null for a bar without one. */
  label: string | null
  done: number
  total: number
  /** tqdm's own elapsed time since the bar was created, whole seconds. */
  elapsedS: number
}

const BAR = /^(?:(.*?): )?\s*\d{1,3}%\|[^|]*\| *(\d+)\/(\d+) \[(?:(\d+):)?(\d\d):(\d\d)<(?:[\d:]+|\?)(?:, [^\]]*)?\]$/

/**
 * The redraw in `text` (a whole line, or what came before a log line glued to it), or null when it is none; a count
 * no double holds is left out with a problem naming it (the line then gives no redraw).
 */
export function parseTqdmRedraw(text: string, problems: ReadProblems = []): TqdmRedraw | null {
  // Most lines are no bar: one quick check before the pattern.
  if (!text.includes('%|')) return null
  const m = BAR.exec(text)
  if (!m) return null
  const before = problems.length
  const done = readNumber(m[2]!, 'a tqdm count', problems)
  const total = readNumber(m[3]!, 'a tqdm total', problems)
  if (done === null || total === null || problems.length > before) return null
  const elapsedS = Number(m[4] ?? 0) * 3600 + Number(m[5]) * 60 + Number(m[6])
  return { label: m[1] ?? null, done, total, elapsedS }
}
