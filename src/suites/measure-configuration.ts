/**
 * Repeated runs of one or more configurations, as src/measure's repetition policy decides: warm-ups (kept, never
 * counted), at least `minRuns` measured runs, an adaptive stop on precision or budget, and several arms interleaved
 * (A B A B ...) so slow drift falls on every arm. A run that does not complete ends that arm's measurement (repeating
 * a crash or an OOM measures nothing new); the other arms go on. Results can be shared between suites of one vitest invocation through an
 * on-disk cache keyed by configuration, input and policy (honest sharing: the same runs, not re-labelled ones).
 */
import { existsSync } from 'node:fs'
import { mkdir, readFile } from 'node:fs/promises'
import { dirname, join } from 'node:path'
import {
  DEFAULT_REPETITION_POLICY,
  nextStep,
  type RecordedRun,
  type RepetitionPolicy,
  type StopReason,
} from '../measure/index.ts'
import { writeFileAtomic } from '../results/atomic-write.ts'
import type { TargetProfile } from '../target/profiles.ts'
import { type Configuration, configKey } from './configuration.ts'
import { type MonitorSettings, observeRun, type RunObservation } from './observe-run.ts'

/** Suite default: 1 warm-up and 3 measured runs (GPU time is scarce; 3 a side is the scaling minimum). */
export const SUITE_POLICY: RepetitionPolicy = { ...DEFAULT_REPETITION_POLICY, warmupRuns: 1, minRuns: 3, maxRuns: 3 }

export interface MeasureOptions {
  profile: TargetProfile
  input: string
  workDir: string
  monitor: MonitorSettings | null
  policy?: RepetitionPolicy
  timeoutMs?: number
  /** Directory of the shared-run cache; omitted: no sharing. */
  cacheDir?: string
}

export type MeasurementStop = StopReason | 'run-failed'

export interface MeasuredConfiguration {
  config: Configuration
  /** Every run in the order it ran, warm-ups included (marked). */
  observations: RunObservation[]
  stop: MeasurementStop
  /** The first run that did not complete, with its exit class and reason. */
  failure: { label: string; exitClass: string; reason: string } | null
  /** True when these runs came from the shared cache (measured earlier in this invocation). */
  fromCache: boolean
}

/** Measured (non-warm-up) runs that completed. */
export function completedRuns(m: MeasuredConfiguration): RunObservation[] {
  return m.observations.filter((o) => !o.measured.warmup && o.measured.run.exitClass === 'completed')
}

/** Bumped when what a cached measurement holds changes shape (e.g. the monitor summary's fields), so a cache written
 *  by older code is measured again rather than read as if it were current. */
const CACHE_FORMAT = 2

/** What, besides a configuration and its input, makes two measurements different ones. */
function measurementExtra(options: ArmsOptions, policy: RepetitionPolicy): string {
  return JSON.stringify({
    format: CACHE_FORMAT,
    policy,
    profile: options.profile.name,
    monitor: options.monitor !== null,
  })
}

function cachePath(options: ArmsOptions, arms: readonly Arm[], extra: string) {
  if (!options.cacheDir) return null
  const key = arms.map((arm) => configKey(arm.config, arm.input, extra)).join('+')
  return join(options.cacheDir, `${key}.json`)
}

/**
 * The first file a cached measurement's readers need that is gone: each run's pipeline log and, when it was
 * monitored, the monitor series beside it (the e2e projection and the reports read them). A results folder copied
 * without its work/ logs (to another machine, say) leaves records whose runs would be judged without their series.
 */
function firstMissingFile(measured: readonly MeasuredConfiguration[]): string | null {
  for (const m of measured)
    for (const o of m.observations) {
      const logPath = o.measured.run.logPath
      if (!logPath) continue
      if (!existsSync(logPath)) return logPath
      const series = join(dirname(logPath), 'gpu.jsonl')
      if (o.measured.gpu && !existsSync(series)) return series
    }
  return null
}

/**
 * The cached measurements at `path`, or null to measure afresh: no file; a file that does not parse (cut short or
 * edited); or one whose runs' files are gone. A dropped cache is said on stderr, naming the file and why.
 */
async function readCache(path: string | null): Promise<MeasuredConfiguration[] | null> {
  if (!path) return null
  const text = await readFile(path, 'utf8').catch(() => null)
  if (text === null) return null
  let measured: MeasuredConfiguration[]
  try {
    measured = JSON.parse(text) as MeasuredConfiguration[]
    if (!Array.isArray(measured) || measured.some((m) => !Array.isArray(m?.observations)))
      throw new Error('not a list of measurements')
  } catch (error) {
    process.stderr.write(`run cache ${path}: unreadable (${(error as Error).message}); measuring again\n`)
    return null
  }
  const missing = firstMissingFile(measured)
  if (missing) {
    process.stderr.write(`run cache ${path}: ${missing} is gone; measuring again\n`)
    return null
  }
  return measured.map((m) => ({ ...m, fromCache: true }))
}

/** One arm of an interleaved measurement: a configuration and the input it runs on. */
export interface Arm {
  config: Configuration
  input: string
}

export type ArmsOptions = Omit<MeasureOptions, 'input'>

/**
 * Measures every configuration on `options.input`, interleaved; one configuration is a plain measurement.
 * @throws MeasureInputError (from the policy) for a bad policy; run failures are data, never thrown.
 */
export function measureArms(
  configs: readonly Configuration[],
  options: MeasureOptions,
): Promise<MeasuredConfiguration[]> {
  return measureInterleaved(
    configs.map((config) => ({ config, input: options.input })),
    options,
  )
}

/**
 * Measures every arm, each on its own input, interleaved (A B A B ...): two sizes of one configuration compared
 * under the same drift, e.g. a subset and the full input of a projection check.
 * @throws RangeError for repeated arm labels; MeasureInputError (from the policy) for a bad policy; run failures
 * are data, never thrown.
 */
export async function measureInterleaved(arms: readonly Arm[], options: ArmsOptions): Promise<MeasuredConfiguration[]> {
  // Labels first: the cache key leaves labels out, so a cached measurement would hide repeated ones.
  const byLabel = new Map(arms.map((arm) => [arm.config.label, arm]))
  if (byLabel.size !== arms.length)
    throw new RangeError(`arm labels must be unique: ${arms.map((a) => a.config.label).join(', ')}`)
  const policy = options.policy ?? SUITE_POLICY
  const extra = measurementExtra(options, policy)
  const path = cachePath(options, arms, extra)
  const cached = await readCache(path)
  if (cached) return cached
  const results = new Map(
    arms.map((arm) => [
      arm.config.label,
      { config: arm.config, observations: [] as RunObservation[], failure: null as MeasuredConfiguration['failure'] },
    ]),
  )
  // Arms still measured: an arm whose run did not complete stops (repeating a crash or an OOM measures nothing new),
  // the others go on, so one configuration that cannot start does not take the rest of an interleaved campaign with it.
  let live = [...byLabel.keys()]
  const recorded: RecordedRun[] = []
  const startedMs = performance.now()
  let stop: StopReason | null = null
  while (live.length > 0) {
    const step = nextStep(
      recorded.filter((r) => live.includes(r.arm)),
      performance.now() - startedMs,
      live,
      policy,
    )
    if (step.action === 'stop') {
      stop = step.reason
      break
    }
    const { config, input } = byLabel.get(step.arm)!
    const entry = results.get(step.arm)!
    const n = entry.observations.length + 1
    const label = `${config.label} ${step.phase === 'warmup' ? 'warm-up' : 'run'} ${n}`
    const observation = await observeRun({
      profile: options.profile,
      config,
      input,
      // One folder per measurement (configuration, input, policy): run labels repeat across measurements, and a
      // second measurement of the same configuration under another policy overwrote the first one's run logs.
      workDir: join(options.workDir, configKey(config, input, extra)),
      label,
      warmup: step.phase === 'warmup',
      monitor: options.monitor,
      timeoutMs: options.timeoutMs,
    })
    entry.observations.push(observation)
    const run = observation.measured.run
    recorded.push({ arm: step.arm, phase: step.phase, durationMs: run.wallMs })
    if (run.exitClass !== 'completed') {
      entry.failure = { label, exitClass: run.exitClass, reason: run.reason ?? run.exitClass }
      live = live.filter((arm) => arm !== step.arm)
    }
  }
  const measured = [...results.values()].map((r) => ({
    ...r,
    stop: r.failure ? ('run-failed' as const) : (stop ?? 'run-failed'),
    fromCache: false,
  }))
  if (path) {
    await mkdir(options.cacheDir!, { recursive: true })
    await writeFileAtomic(path, JSON.stringify(measured))
  }
  return measured
}

/** Measures one configuration (warm-up, repeats, adaptive stop). */
export async function measureConfiguration(
  config: Configuration,
  options: MeasureOptions,
): Promise<MeasuredConfiguration> {
  const [measured] = await measureArms([config], options)
  return measured!
}
