/**
 * The history's known answer, measured: one stage-suite record a night, each in a run directory of its own, the
 * stepped target (history-target.ts) checked out at that night's commit; then every night added to a fresh history
 * in order and judged after each add, as the nightly job does (scripts/nightly-history.sh runs the same calls through
 * the CLI). What each night's judgement found is returned for the caller's checks.
 */

import type { Configuration } from '../engine/configuration.ts'
import { createSuiteContext } from '../engine/context.ts'
import { analyzeChanges, type Regression, type SeriesChange } from '../history/changes.ts'
import { historyRunsOf } from '../history/entry.ts'
import { headlineMetrics } from '../history/metrics.ts'
import { readSeries, sampleReader } from '../history/read.ts'
import { HistoryStore } from '../history/store.ts'
import { median, toSorted } from '../measure/index.ts'
import { findTorchPython } from '../platform/python.ts'
import { readResultRecords } from '../results/store.ts'
import { runStageSuite, type SuiteMeasure } from '../suites/index.ts'
import { checkoutNight, type SteppedTarget } from './history-target.ts'

export interface NightsOptions {
  target: SteppedTarget
  /** Where the nights' run directories go (one `<runId>/` each). */
  resultsRoot: string
  runIdOf: (night: number) => string
  /** How each night measures (input, monitor, runs); night 0 may warm up. */
  measureOf: (night: number) => SuiteMeasure
  config: Configuration
  /** More of a user's settings for the nights (VIRNUCPRO_BENCH_THRESHOLDS, say), set and put back like the target's. */
  settings?: Record<string, string>
  /** The first night to measure (default 0): the nights after a step appended since the earlier ones were measured. */
  fromNight?: number
  /** The night after the last to measure (default: every commit of the target): one night measured again, say. */
  toNight?: number
}

/**
 * The target's settings, as a user sets them: the runner launches the target from this process's environment
 * (VIRNUCPRO_DIR, VIRNUCPRO_PYTHON), so they are set here for the nights and put back after.
 */
async function withTargetEnv<T>(target: SteppedTarget, more: Record<string, string>, fn: () => Promise<T>): Promise<T> {
  const python = findTorchPython(process.env)
  const settings: Record<string, string> = { ...more, VIRNUCPRO_BENCH_TARGET: 'virnucpro', VIRNUCPRO_DIR: target.dir }
  if (python.state === 'found' && !process.env.VIRNUCPRO_PYTHON) settings.VIRNUCPRO_PYTHON = python.executable
  const saved = Object.fromEntries(Object.keys(settings).map((k) => [k, process.env[k]]))
  Object.assign(process.env, settings)
  try {
    return await fn()
  } finally {
    for (const [k, v] of Object.entries(saved))
      if (v === undefined) delete process.env[k]
      else process.env[k] = v
  }
}

/** Measures every night from `fromNight` on in turn; returns the run directories, oldest first. */
export function measureNights(options: NightsOptions): Promise<string[]> {
  const config = { ...options.config, env: { ...options.config.env, ...options.target.env } }
  return withTargetEnv(options.target, options.settings ?? {}, async () => {
    const dirs: string[] = []
    const end = Math.min(options.toNight ?? Number.POSITIVE_INFINITY, options.target.commits.length)
    for (let night = options.fromNight ?? 0; night < end; night++) {
      await checkoutNight(options.target, night)
      const ctx = await createSuiteContext(options.runIdOf(night), process.env, options.resultsRoot)
      await runStageSuite(ctx, options.measureOf(night), config)
      dirs.push(ctx.resultsDir)
    }
    return dirs
  })
}

/**
 * A night's records; `which` names the night in the error.
 * @throws Error naming the night and its first invalid record: a night measured is whole or not used.
 */
async function nightRecords(dir: string, which: string) {
  const { records, invalid } = await readResultRecords(dir)
  if (invalid.length > 0) throw new Error(`${which}: invalid record ${invalid[0]!.file}: ${invalid[0]!.reason}`)
  return records
}

/**
 * The median over `runDirs` of each night's headline figure `metric` (a night's own median of its runs), in the
 * metric's unit: what a step is sized from, so that a known answer is the same relative change on a slow machine as on
 * a fast one.
 * @throws Error when a night has an invalid record or no such figure (naming the night's directory).
 */
export async function medianOfNights(runDirs: readonly string[], metric: string): Promise<number> {
  const values: number[] = []
  for (const dir of runDirs) {
    const figure = headlineMetrics(await nightRecords(dir, dir)).find((m) => m.name === metric)
    if (!figure) throw new Error(`${dir}: no ${metric} figure in its records`)
    values.push(figure.value)
  }
  return median(toSorted(values, `${metric} of the nights`))
}

export interface NightJudgement {
  night: number
  runId: string
  /** What a nightly gate fails on after this night's add. */
  regressions: Regression[]
  /** What it reports without failing: a regression of this night alone, not yet confirmed by a second night. */
  suspects: Regression[]
  changes: SeriesChange[]
}

/** Adds each run directory to a fresh history at `file`, in order, and judges the history after each add. */
export async function replayNights(file: string, runDirs: readonly string[]): Promise<NightJudgement[]> {
  using store = HistoryStore.open(file, { create: true })
  const out: NightJudgement[] = []
  for (const [night, dir] of runDirs.entries()) {
    const runs = historyRunsOf(await nightRecords(dir, `night ${night}`), dir)
    for (const run of runs) store.addRun(run)
    const report = analyzeChanges(readSeries(store), { samplesOf: sampleReader(store) })
    const { regressions, suspects, changes } = report
    out.push({ night, runId: runs[0]?.runId ?? '', regressions, suspects, changes })
  }
  return out
}

/** What the gate found on `metric` the night of `n`. */
export function findingsOn(n: NightJudgement, metric: string): Regression[] {
  return n.regressions.filter((r) => r.metric === metric)
}

/** The first night whose gate confirmed a change point on `metric`; -1 when none did. */
export function confirmedNight(nights: readonly NightJudgement[], metric: string): number {
  return nights.findIndex((n) => findingsOn(n, metric).some((r) => r.how === 'change-point'))
}

/**
 * One line a night: what the gate failed on and what it suspected in `metric`, with the change and its commits, and
 * how many other series it failed on or suspected (for a log or an annotation).
 */
export function nightLines(nights: readonly NightJudgement[], metric: string): string[] {
  const text = (r: Regression) =>
    `${(r.relativeChange * 100).toFixed(1)}% ${r.how} ${r.fromCommit.slice(0, 7)}..${r.toCommit.slice(0, 7)}`
  return nights.map((n) => {
    const failed = findingsOn(n, metric).map(text)
    const suspected = n.suspects.filter((r) => r.metric === metric).map(text)
    const parts = [
      failed.length ? `FAILS ${failed.join('; ')}` : '',
      suspected.length ? `suspect ${suspected.join('; ')}` : '',
    ].filter(Boolean)
    const otherFailed = n.regressions.filter((r) => r.metric !== metric).length
    const otherSuspected = n.suspects.filter((r) => r.metric !== metric).length
    const others =
      otherFailed + otherSuspected > 0 ? ` (other series: ${otherFailed} failing, ${otherSuspected} suspect)` : ''
    return `history night ${n.night}: ${metric} ${parts.join(', ') || 'nothing'}${others}`
  })
}
