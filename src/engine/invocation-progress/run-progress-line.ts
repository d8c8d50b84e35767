/**
 * The lines that say where an invocation of the gpu project stands, one plain line each, greppable by their prefix:
 * `[run]` after every run (and once per configuration for runs the run journal gave back), `[plan]` when a measurement
 * starts measuring, `[running]` when a minute would otherwise pass without a word. Pure: data in, a line out; the
 * reporter (reporters/run-lines.ts) gathers the data.
 */
import { escapeControls } from '../../platform/one-line.ts'
import type { TimeLeft } from './forecast.ts'
import type { RunPhase } from './run-events.ts'

/** A run's own time, to a tenth of a second: `14.2 s`, `312.0 s`. */
export const secondsText = (ms: number): string => `${(Math.max(0, ms) / 1000).toFixed(1)} s`

/** A span a person plans by: `45 s`, `3 min 10 s`, `2 h 5 min`. */
export function spanText(ms: number): string {
  const s = Math.round(Math.max(0, ms) / 1000)
  if (s < 60) return `${s} s`
  const min = Math.floor(s / 60)
  if (min < 60) return `${min} min ${s % 60} s`
  return `${Math.floor(min / 60)} h ${min % 60} min`
}

/**
 * The suite a test file is, as a person names it: `benchmarks/e2e.gpu.test.ts` -> `e2e`,
 * `benchmarks/validation/capacity/capacity.gpu.test.ts` -> `validation/capacity`, a bench file's with `(bench)`.
 */
export function suiteName(file: string): string {
  const bench = /\.bench\.[cm]?[jt]s$/.test(file)
  const parts = file
    .replace(/^(?:\.\/)?benchmarks\//, '')
    .replace(/(?:\.gpu)?\.(?:test|bench)\.[cm]?[jt]s$/, '')
    .split('/')
  // `capacity/capacity`: the folder already names it.
  if (parts.length > 1 && parts.at(-1) === parts.at(-2)) parts.pop()
  return `${parts.join('/')}${bench ? ' (bench)' : ''}`
}

/** The invocation as a whole after a run: what every line ends with. */
export interface InvocationStatus {
  elapsedMs: number
  left: TimeLeft
  /** Runs measured by this invocation so far (warm-ups included). */
  measured: number
  /** `measured` plus the runs still planned by the measurements opened so far. */
  planned: number
  /** Runs kept by an earlier invocation and given back (a continuation). */
  reused: number
  /** Files of the invocation not started yet. */
  filesNotStarted: number
}

function leftText(left: TimeLeft): string {
  if (left.leftMs === null) return 'time left known after the first run'
  // A file not started, with nothing to forecast it by, adds an unknown: said, not guessed.
  return `about ${spanText(left.leftMs)} left${left.atLeast ? ' for the runs planned so far, more for the files not started' : ''}`
}

/** `invocation 3 min 10 s elapsed, about 8 min 0 s left (27 of 41 runs planned so far, warm-ups included; ...)`. */
export function statusText(s: InvocationStatus): string {
  const notes = [
    `${s.measured} of ${s.planned} runs planned so far, warm-ups included`,
    ...(s.reused > 0 ? [`${s.reused} kept run${s.reused === 1 ? '' : 's'} reused`] : []),
    ...(s.filesNotStarted > 0 ? [`${s.filesNotStarted} file${s.filesNotStarted === 1 ? '' : 's'} not started`] : []),
  ]
  return `invocation ${spanText(s.elapsedMs)} elapsed, ${leftText(s.left)} (${notes.join('; ')})`
}

/** One run of one arm: `run 2 of 3`, `warm-up 1 of 1`, `run 7 of up to 20` (an adaptive stop may end it sooner). */
export interface RunPosition {
  suite: string
  arm: string
  phase: RunPhase
  n: number
  of: number
  /** The arm may stop before `of` (its policy's minimum is lower). */
  upTo: boolean
}

const where = (p: Pick<RunPosition, 'suite' | 'arm'>) => escapeControls(`${p.suite} > ${p.arm}`)
const position = (p: RunPosition) => `${p.phase} ${p.n} of ${p.upTo ? 'up to ' : ''}${p.of}`

/**
 * After a run measured by this invocation: `[run] capacity > 1 GPU, 1,000 seqs: run 2 of 3, 14.2 s; invocation ...`;
 * a run that did not complete says how it ended; `note`, what this run changed (a forecast dropped), comes last.
 */
export function runLine(
  p: RunPosition,
  run: { wallMs: number; exitClass: string },
  s: InvocationStatus,
  note: string | null = null,
): string {
  const ended = run.exitClass === 'completed' ? '' : `, ended ${escapeControls(run.exitClass)}`
  return `[run] ${where(p)}: ${position(p)}, ${secondsText(run.wallMs)}${ended}; ${statusText(s)}${note ? `; ${note}` : ''}`
}

/**
 * Runs of one arm the run journal gave back, in one line: kept by an earlier invocation (a continuation), or shared
 * with an earlier measurement of this invocation. Never said as measured.
 */
export function reusedLine(
  at: Pick<RunPosition, 'suite' | 'arm'>,
  given: { warmups: number; runs: number; from: 'earlier' | 'shared' },
  s: InvocationStatus,
): string {
  const what = [
    ...(given.runs > 0 ? [`${given.runs} run${given.runs === 1 ? '' : 's'}`] : []),
    ...(given.warmups > 0 ? [`${given.warmups} warm-up${given.warmups === 1 ? '' : 's'}`] : []),
  ].join(' and ')
  const from =
    given.from === 'earlier'
      ? 'kept by an earlier invocation, reused, not measured again'
      : 'shared with an earlier measurement of this invocation'
  return `[run] ${where(at)}: ${what} ${from}; ${statusText(s)}`
}

/** A measurement about to measure: `[plan] e2e: 3 runs to measure (1 GPU, typical 5,000: 3 runs); invocation ...`. */
export function measurementPlanLine(
  suite: string,
  arms: readonly { label: string; warmups: number; runs: number; upTo: boolean }[],
  s: InvocationStatus,
): string {
  const total = arms.reduce((sum, a) => sum + a.warmups + a.runs, 0)
  const shown = arms.slice(0, 4).map((a) => {
    const runs = `${a.upTo ? 'up to ' : ''}${a.runs} run${a.runs === 1 ? '' : 's'}`
    return `${a.label}: ${a.warmups > 0 ? `${a.warmups} warm-up + ` : ''}${runs}`
  })
  const more = arms.length > 4 ? `, and ${arms.length - 4} more configuration${arms.length === 5 ? '' : 's'}` : ''
  const what = `${total} run${total === 1 ? '' : 's'} to measure (${shown.join('; ')}${more})`
  return escapeControls(`[plan] ${suite}: ${what}; ${statusText(s)}`)
}

/** Nothing said for a while: the run in flight and how long it has run, or that none is (inputs, analysis). */
export function waitingLine(
  now: { suite: string; run: (RunPosition & { forMs: number; estimateMs: number | null }) | null },
  s: InvocationStatus,
): string {
  if (!now.run) return `[running] ${escapeControls(now.suite)}: no run in flight (inputs or analysis); ${statusText(s)}`
  const r = now.run
  const usual = r.estimateMs === null ? '' : ` (about ${spanText(r.estimateMs)} a run here)`
  return `[running] ${where(r)}: ${position(r)} running for ${spanText(r.forMs)}${usual}; ${statusText(s)}`
}

/** At the end: `[run] all files: 12 runs measured, 3 kept runs reused, in 9 min 40 s`. */
export function doneLine(s: Pick<InvocationStatus, 'elapsedMs' | 'measured' | 'reused'>, runsMs: number): string {
  const reused = s.reused > 0 ? `, ${s.reused} kept run${s.reused === 1 ? '' : 's'} reused` : ''
  return `[run] all files: ${s.measured} run${s.measured === 1 ? '' : 's'} measured${reused}, ${spanText(runsMs)} of runs in ${spanText(s.elapsedMs)}`
}
