/**
 * Repeated runs of one or more configurations, as src/measure's repetition policy decides: warm-ups (kept, never
 * counted), at least `minRuns` measured runs, an adaptive stop on precision or budget, and several arms interleaved
 * (A B A B ...) so slow drift falls on every arm. A run that does not complete ends that arm's measurement (repeating
 * a crash or an OOM measures nothing new); the other arms go on. Every run is kept in the run journal as it ends
 * (measurement-journal.ts), and reused by a later measurement of the same key: a continuation after a kill, or
 * another suite of the same invocation that needs the same runs (honest sharing: the same runs, not re-labelled ones).
 */
import {
  DEFAULT_REPETITION_POLICY,
  nextStep,
  type RecordedRun,
  type RepetitionPolicy,
  type StopReason,
} from '../measure/index.ts'
import type { TargetProfile } from '../pipeline/profiles.ts'
import type { Configuration } from './configuration.ts'
import { announceRun, newMeasurementId, type RunPhase } from './invocation-progress/run-events.ts'
import { type JournalOptions, type OpenJournal, openJournal } from './measurement-journal.ts'
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
  /** The run journal's side: the runs' key, this invocation, the record they are for; omitted: runs keyed by arm only. */
  journal?: JournalOptions
  /**
   * Called as each run ends (measured, or given back by the journal: `reused`), failed ones too, with its arm's label,
   * in the order they ran: what a suite's running answer reads (capacity: one line a run). Its errors are the caller's.
   */
  onRun?: (arm: string, observation: RunObservation, reused: boolean) => void
}

export type MeasurementStop = StopReason | 'run-failed'

export interface MeasuredConfiguration {
  config: Configuration
  /** Every run in the order it ran, warm-ups included (marked). */
  observations: RunObservation[]
  stop: MeasurementStop
  /** The first run that did not complete, with its exit class and reason. */
  failure: { label: string; exitClass: string; reason: string } | null
  /** How many of `observations` the run journal gave back (kept by an earlier invocation, or shared within this one). */
  reusedRuns: number
}

/** Measured (non-warm-up) runs that completed. */
export function completedRuns(m: MeasuredConfiguration): RunObservation[] {
  return m.observations.filter((o) => !o.measured.warmup && o.measured.run.exitClass === 'completed')
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
 * under the same drift, e.g. a subset and the full input of a projection check. Each run is kept in the run journal
 * the moment it ends; a run the journal already holds for this key is reused instead of measured (kept-runs.ts), so a
 * measurement stopped by a kill continues where it stopped, and suites of one invocation that need the same runs
 * share them.
 * @throws RangeError for repeated arm labels; MeasureInputError (from the policy) for a bad policy; run failures
 * are data, never thrown.
 */
export async function measureInterleaved(arms: readonly Arm[], options: ArmsOptions): Promise<MeasuredConfiguration[]> {
  const byLabel = new Map(arms.map((arm) => [arm.config.label, arm]))
  if (byLabel.size !== arms.length)
    throw new RangeError(`arm labels must be unique: ${arms.map((a) => a.config.label).join(', ')}`)
  const policy = options.policy ?? SUITE_POLICY
  const journal = await openJournal(arms, options, policy)
  const measurement = newMeasurementId()
  announceRun({
    type: 'plan',
    measurement,
    arms: arms.map(({ config: { label } }) => ({
      label,
      warmups: (policy.warmupArms?.includes(label) ?? true) ? policy.warmupRuns : 0,
      runs: policy.maxRuns,
      minRuns: policy.minRuns,
    })),
  })
  try {
    return await measureAnnounced(arms, options, policy, journal, measurement)
  } finally {
    // However it stops (its plan, an adaptive stop, a lost writer lock): nothing more of it will run.
    announceRun({ type: 'end', measurement })
  }
}

/** The measurement itself: runs as the policy asks, each announced as it starts and ends (run-events.ts). */
async function measureAnnounced(
  arms: readonly Arm[],
  options: ArmsOptions,
  policy: RepetitionPolicy,
  journal: OpenJournal,
  measurement: string,
): Promise<MeasuredConfiguration[]> {
  const byLabel = new Map(arms.map((arm) => [arm.config.label, arm]))
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
  // The time budget counts reused runs as the time they took, so a continuation decides as the first attempt would.
  let reusedMs = 0
  let stop: StopReason | null = null
  while (live.length > 0) {
    const step = nextStep(
      recorded.filter((r) => live.includes(r.arm)),
      reusedMs + performance.now() - startedMs,
      live,
      policy,
    )
    if (step.action === 'stop') {
      stop = step.reason
      break
    }
    const arm = byLabel.get(step.arm)!
    const entry = results.get(step.arm)!
    const n = entry.observations.length + 1
    const label = `${arm.config.label} ${step.phase === 'warmup' ? 'warm-up' : 'run'} ${n}`
    // The label counts warm-ups and runs together (its folder name keeps it so); a person counts runs apart.
    const phase: RunPhase = step.phase === 'warmup' ? 'warm-up' : 'run'
    const nOfPhase = entry.observations.filter((o) => o.measured.warmup === (phase === 'warm-up')).length + 1
    const said = { measurement, arm: step.arm, phase, n: nOfPhase }
    const { observation, reused } = await journal.run(arm, label, (abortSignal) => {
      announceRun({ type: 'start', ...said })
      return observeRun({
        profile: options.profile,
        config: arm.config,
        input: arm.input,
        workDir: journal.slotDir(arm),
        label,
        warmup: step.phase === 'warmup',
        monitor: options.monitor,
        timeoutMs: options.timeoutMs,
        abortSignal,
      })
    })
    entry.observations.push(observation)
    options.onRun?.(step.arm, observation, reused)
    const run = observation.measured.run
    const given = observation.measured.keptFrom ? 'earlier' : 'shared'
    announceRun({ type: 'run', ...said, wallMs: run.wallMs, exitClass: run.exitClass, reused: reused ? given : null })
    if (reused) reusedMs += run.wallMs
    recorded.push({ arm: step.arm, phase: step.phase, durationMs: run.wallMs })
    if (run.exitClass !== 'completed') {
      entry.failure = { label, exitClass: run.exitClass, reason: run.reason ?? run.exitClass }
      live = live.filter((a) => a !== step.arm)
    }
  }
  journal.finish()
  return [...results.values()].map((r) => ({
    ...r,
    stop: r.failure ? ('run-failed' as const) : (stop ?? 'run-failed'),
    reusedRuns: r.observations.filter((o) => journal.reused.has(o)).length,
  }))
}

/** Measures one configuration (warm-up, repeats, adaptive stop). */
export async function measureConfiguration(
  config: Configuration,
  options: MeasureOptions,
): Promise<MeasuredConfiguration> {
  const [measured] = await measureArms([config], options)
  return measured!
}
