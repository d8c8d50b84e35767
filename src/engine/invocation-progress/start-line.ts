/**
 * The line an invocation of the gpu project opens with: which files it runs (the files that will skip named apart,
 * uncounted), how long it should take and by what (earlier invocations of the same plan under the same key; else each
 * file's plan at the cost prior of this host's GPU kind, issue 57; else nothing yet: then the forecast follows the first
 * run), and whether the same command run again after a job limit continues where it stopped. Pure: data in, a line out.
 */
import { escapeControls } from '../../platform/one-line.ts'
import { JOB_END_KEEP_MS } from '../settings.ts'
import { type EarlierProgress, fileForecastMs } from './earlier-progress.ts'
import { type PriorForecast, priorDesignMs, priorFileMs, priorFileRuns, willSkip } from './prior-forecast.ts'
import { spanText, suiteName } from './run-progress-line.ts'

export interface InvocationStart {
  /** The test files of the project (relative to the repository), one at a time; those the prior says skip are apart. */
  files: readonly string[]
  earlier: EarlierProgress | null
  /** Every file priced by its plan and the host's cost prior, or null where none was made. */
  prior?: PriorForecast | null
  runId: string
  resultsRoot: string
  /** Whether the same command run again continues this run (false with VIRNUCPRO_BENCH_FRESH=1, which starts afresh). */
  continuable: boolean
  /** VIRNUCPRO_BENCH_JOB_LIMIT_S (0 or absent: none): the forecast is said in such limits too. */
  jobLimitS?: number
}

/** What the forecast adds up to: the files' time, the most the capacity design may add, and whether it is partial. */
interface ForecastSum {
  text: string
  totalMs: number | null
  designMs: number
  partial: boolean
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`

/** Why an earlier invocation under this key forecasts nothing: its plan differs (what, in its first few fields). */
function otherPlanText(earlier: EarlierProgress | null): string {
  const other = earlier?.otherPlan
  return other ? ` (run ${other.runId} did, with another plan: ${other.differences.join('; ')})` : ''
}

/** The files an earlier invocation of this plan forecasts: their runs and spans, by run. */
function earlierText(s: InvocationStart, known: readonly string[]): string {
  const each = known.map((f) => {
    const e = s.earlier!.files[f]!
    return `${suiteName(f)} ${plural(e.runs, 'run')} in ${spanText(e.spanMs)}`
  })
  const runIds = [...new Set(known.map((f) => s.earlier!.files[f]!.runId))]
  return `as earlier invocations of this plan under this key took them (run ${runIds.join(', ')}: ${each.join(', ')})`
}

/** The files the prior forecasts: their runs and time, and whose prior. */
function priorText(s: InvocationStart, priced: readonly string[], files: readonly string[]): string {
  const each = priced.map((f) => {
    const runs = priorFileRuns(s.prior!, f, files)
    return `${suiteName(f)} ${runs > 0 ? `${plural(runs, 'run')} ` : ''}${spanText(priorFileMs(s.prior!, f, files)!)}`
  })
  return `from the ${s.prior!.kind} prior (${each.join(', ')})`
}

/** Why the prior says nothing, or not all, of a file: its `unknown` (a GPU count, a part no plan says ahead). */
const priorUnknown = (s: InvocationStart, file: string): string[] => {
  const p = s.prior?.files[file]
  return p && !('skip' in p) ? p.unknown : []
}

/** `monitor (no H100 figure)`, `nvml (no H100 figure)` -> `monitor, nvml (no H100 figure)`: one reason said once. */
function mergedReasons(parts: readonly string[]): string[] {
  const byWhy = new Map<string, string[]>()
  for (const part of new Set(parts)) {
    const [, what, why] = /^(.*?) \((.*)\)$/.exec(part) ?? [part, part, '']
    byWhy.set(why!, [...(byWhy.get(why!) ?? []), what!])
  }
  return [...byWhy].map(([why, whats]) => `${whats.join(', ')}${why ? ` (${why})` : ''}`)
}

/** What the forecast leaves out: files with nothing to go by, and parts of files the prior has no figure for. */
function unknownText(s: InvocationStart, unknown: readonly string[], priced: readonly string[]): string {
  const unsaid = unknown.filter((f) => priorUnknown(s, f).length === 0 || s.prior?.missing)
  const files =
    unsaid.length > 0 ? [`${unsaid.map(suiteName).join(', ')}: not run here before, forecast after its first run`] : []
  const parts = [...unknown.filter((f) => !unsaid.includes(f)), ...priced].flatMap((f) => priorUnknown(s, f))
  const more = parts.length > 0 ? [`not counted: ${mergedReasons(parts).join(', ')}`] : []
  return [...files, ...more].map((t) => `; ${t}`).join('')
}

function forecastSum(s: InvocationStart, files: readonly string[]): ForecastSum {
  const known = files.filter((f) => s.earlier?.files[f])
  const priced = files.filter((f) => !s.earlier?.files[f] && priorFileMs(s.prior ?? null, f, files) !== null)
  const unknown = files.filter((f) => !known.includes(f) && !priced.includes(f))
  if (known.length === 0 && priced.length === 0) {
    const why = s.prior?.missing ? `, and the cost prior has no figure here: ${s.prior.missing}` : ''
    return {
      text: `no earlier invocation of this plan under this key in ${s.resultsRoot} ran these files${otherPlanText(s.earlier)}${why}, so the forecast follows the first run`,
      totalMs: null,
      designMs: 0,
      partial: true,
    }
  }
  const totalMs =
    known.reduce((sum, f) => sum + (fileForecastMs(s.earlier, f) ?? 0), 0) +
    priced.reduce((sum, f) => sum + priorFileMs(s.prior ?? null, f, files)!, 0)
  const from = [
    ...(known.length > 0 ? [earlierText(s, known)] : []),
    ...(priced.length > 0 ? [priorText(s, priced, files)] : []),
  ]
  const rest = unknownText(s, unknown, priced)
  const atLeast = rest !== '' ? 'at least ' : ''
  const refined = priced.length > 0 ? '; refined after each run' : ''
  // An earlier invocation's span holds the top-ups its design made; the prior's plan holds none, so its most is apart.
  const designMs = priced.reduce((sum, f) => sum + priorDesignMs(s.prior ?? null, f), 0)
  const design =
    designMs > 0 ? `; the capacity design may add up to ${spanText(designMs)} more (its GPU-minute budget)` : ''
  return {
    text: `${atLeast}about ${spanText(totalMs)}, ${from.join(', and ')}${rest}${refined}${design}`,
    totalMs,
    designMs,
    partial: rest !== '',
  }
}

/**
 * How many job limits the forecast work takes (issue 57): each invocation gets the limit less what it keeps after the
 * capacity measurement (JOB_END_KEEP_MS); the most where the capacity design spends its whole budget. Nothing where no
 * limit is set or nothing is forecast.
 */
function jobLimitsText(s: InvocationStart, sum: ForecastSum): string {
  const limitS = s.jobLimitS ?? 0
  if (!(limitS > 0) || sum.totalMs === null) return ''
  const usableMs = Math.max(1, limitS * 1000 - JOB_END_KEEP_MS)
  const n = Math.max(1, Math.ceil(sum.totalMs / usableMs))
  const most = Math.max(1, Math.ceil((sum.totalMs + sum.designMs) / usableMs))
  const span = limitS % 60 === 0 ? `${limitS / 60} min` : spanText(limitS * 1000)
  const limit = `job limit${n === 1 ? '' : 's'} of ${span} (VIRNUCPRO_BENCH_JOB_LIMIT_S)`
  const upTo = most > n ? `, ${most} if the capacity design spends its budget` : ''
  return ` Takes ${sum.partial ? 'at least ' : ''}${n} ${limit}${upTo}: the capacity design stops short of each limit, and the same command again goes on.`
}

function keptText(earlier: EarlierProgress | null): string {
  const kept = Object.values(earlier?.kept ?? {})
  const runs = kept.reduce((sum, k) => sum + k.runs, 0)
  const warmups = kept.reduce((sum, k) => sum + k.warmups, 0)
  if (runs + warmups === 0) return ''
  const wallMs = kept.reduce((sum, k) => sum + k.wallMs, 0)
  const what = [...(runs > 0 ? [plural(runs, 'run')] : []), ...(warmups > 0 ? [plural(warmups, 'warm-up')] : [])]
  return ` ${what.join(' and ')} kept by this run's earlier invocations (${spanText(wallMs)} of runs) are reused, not measured again.`
}

/** `[plan] gpu project: 2 files, one at a time: e2e, stage-throughput. Forecast: ... Cut by a job limit, ...` */
export function startLine(s: InvocationStart): string {
  const run = s.files.filter((f) => willSkip(s.prior ?? null, f) === null)
  const skipped = s.files.filter((f) => willSkip(s.prior ?? null, f) !== null)
  const skipping =
    skipped.length > 0 ? ` (${skipped.length} more skip, each saying why: ${skipped.map(suiteName).join(', ')})` : ''
  const files = `${plural(run.length, 'file')}, one at a time: ${run.map(suiteName).join(', ')}${skipping}`
  const again = s.continuable
    ? `If a job limit cuts it, the same command run again continues run ${s.runId} where it stopped: every run kept is reused, only the run in flight is measured again.`
    : `VIRNUCPRO_BENCH_FRESH=1 is set: the same command run again would start afresh; run without it to continue run ${s.runId} where it stopped.`
  const sum = forecastSum(s, run)
  return escapeControls(
    `[plan] gpu project: ${files}. Forecast: ${sum.text}.${jobLimitsText(s, sum)}${keptText(s.earlier)} Each file plans its runs as it starts; a [run] line follows every run. ${again}`,
  )
}
