/**
 * The line an invocation of the gpu project opens with: which files it runs, how long it should take and by what
 * (earlier invocations under the same key and plan, or nothing yet: then the forecast follows the first run), and whether the
 * same command run again after a job limit continues where it stopped. Pure: data in, a line out.
 */
import { escapeControls } from '../../platform/one-line.ts'
import { type EarlierProgress, fileForecastMs } from './earlier-progress.ts'
import { spanText, suiteName } from './run-progress-line.ts'

export interface InvocationStart {
  /** The test files to run (relative to the repository), one at a time. */
  files: readonly string[]
  earlier: EarlierProgress | null
  runId: string
  resultsRoot: string
  /** Whether the same command run again continues this run (false with VIRNUCPRO_BENCH_FRESH=1, which starts afresh). */
  continuable: boolean
}

const plural = (n: number, what: string) => `${n} ${what}${n === 1 ? '' : 's'}`

/** Why an earlier invocation under this key forecasts nothing: its plan differs (what, in its first few fields). */
function otherPlanText(earlier: EarlierProgress | null): string {
  const other = earlier?.otherPlan
  return other ? ` (run ${other.runId} did, with another plan: ${other.differences.join('; ')})` : ''
}

function forecastText(s: InvocationStart): string {
  const known = s.files.filter((f) => s.earlier?.files[f])
  if (known.length === 0)
    return `no earlier invocation of this plan under this key in ${s.resultsRoot} ran these files${otherPlanText(s.earlier)}, so the forecast follows the first run`
  const totalMs = known.reduce((sum, f) => sum + (fileForecastMs(s.earlier, f) ?? 0), 0)
  const each = known.map((f) => {
    const e = s.earlier!.files[f]!
    return `${suiteName(f)} ${plural(e.runs, 'run')} in ${spanText(e.spanMs)}`
  })
  const unknown = s.files.filter((f) => !s.earlier?.files[f]).map(suiteName)
  const runIds = [...new Set(known.map((f) => s.earlier!.files[f]!.runId))]
  const from = `as earlier invocations of this plan under this key took them (run ${runIds.join(', ')}: ${each.join(', ')})`
  const rest = unknown.length > 0 ? `; ${unknown.join(', ')}: not run here before, forecast after its first run` : ''
  return `${unknown.length > 0 ? 'at least ' : ''}about ${spanText(totalMs)}, ${from}${rest}`
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
  const files = `${plural(s.files.length, 'file')}, one at a time: ${s.files.map(suiteName).join(', ')}`
  const again = s.continuable
    ? `If a job limit cuts it, the same command run again continues run ${s.runId} where it stopped: every run kept is reused, only the run in flight is measured again.`
    : `VIRNUCPRO_BENCH_FRESH=1 is set: the same command run again would start afresh; run without it to continue run ${s.runId} where it stopped.`
  return escapeControls(
    `[plan] gpu project: ${files}. Forecast: ${forecastText(s)}.${keptText(s.earlier)} Each file plans its runs as it starts; a [run] line follows every run. ${again}`,
  )
}
