/**
 * A measurement's side of the run journal: where each arm's runs go (its slot: configuration, input, profile, monitor
 * and warm-ups; never the run count, which a continuation may raise), the measurement file that tells a reader which
 * record the runs are for, the key each run is checked against, and the lines that say what was reused and what is
 * measured again. The store is src/results/run-journal.ts; what may be reused is kept-runs.ts.
 */
import { createHash } from 'node:crypto'
import { readdir } from 'node:fs/promises'
import { join } from 'node:path'
import type { Thresholds } from '../config/thresholds.ts'
import type { RepetitionPolicy } from '../measure/index.ts'
import type { TargetProfile } from '../pipeline/profiles.ts'
import { runRefusal } from '../results/run-acceptance.ts'
import { isRunOf, readRunEntry, writeMeasurementEntry } from '../results/run-journal.ts'
import type { RunKey } from '../results/run-key.ts'
import type { Provenance } from '../results/schema/index.ts'
import { JOURNAL_FORMAT, type Purpose } from '../results/schema/run-entry.ts'
import { checkWriter, WriterLostError } from '../results/writer-lock.ts'
import { type Configuration, configKey, slug } from './configuration.ts'
import { keepRun, measuredByThisProcess, takeKeptRun } from './kept-runs.ts'
import type { MonitorSettings, RunObservation } from './observe-run.ts'
import { runKey } from './run-keys.ts'

export interface JournalOptions {
  /** The part of every run's key this invocation shares (run-keys.ts environmentKey). */
  environment: RunKey | Promise<RunKey>
  /** This invocation's writer token: runs it measured are shared within it, others' are "kept". */
  invocation: string
  /**
   * The writer lock the journal's files are written under (its work directory; the token is `invocation`): every write
   * is fenced by it (writer-lock.ts checkWriter). Absent: unfenced (library use, tests without a lock).
   */
  lockDir?: string
  runId: string
  /** The record the runs are for; null: the runs are kept, but no reader can show them as a record after a kill. */
  purpose: Purpose | null
  /** What a reader needs to show the runs as that record (provenance of the arms' inputs, thresholds). */
  describe?: (inputFiles: string[]) => Promise<{ provenance: Provenance; thresholds: Thresholds }>
  /** Where the continuing / measured-again lines go; default stderr. */
  say?: (line: string) => void
}

interface JournalArm {
  config: { label: string }
  input: string
}

export interface OpenJournal {
  /** The folder an arm's runs go to. */
  slotDir(arm: JournalArm): string
  /**
   * The kept run of `label` if one stands for it, else `measure()`'s run, kept at once. `measure` is handed a signal
   * that aborts when this invocation loses the writer lock mid-run (it was suspended and the run taken over): its
   * target must end then, or it goes on writing its outputs into the folder the new writer measures in.
   */
  run(
    arm: JournalArm,
    label: string,
    measure: (abortSignal: AbortSignal) => Promise<RunObservation>,
  ): Promise<{ observation: RunObservation; reused: boolean }>
  /** Observations the journal gave back. */
  readonly reused: ReadonlySet<RunObservation>
  /** Says what the measurement reused and measured again (nothing when it reused nothing of another invocation). */
  finish(): void
}

interface MeasureSide {
  profile: TargetProfile
  workDir: string
  monitor: MonitorSettings | null
  journal?: JournalOptions
}

/** A process-local invocation for measurements without journal options (library use, tests). */
const LOCAL_INVOCATION = `process-${process.pid}-${Date.now()}`

const hash8 = (text: string) => createHash('sha256').update(text).digest('hex').slice(0, 8)

/**
 * Opens the journal for a measurement of `arms`: writes its measurement file (when it has a purpose) and says how many
 * runs of earlier invocations it finds kept.
 */
export async function openJournal(
  arms: readonly { config: Configuration; input: string }[],
  options: MeasureSide,
  policy: RepetitionPolicy,
): Promise<OpenJournal> {
  const j = options.journal
  const invocation = j?.invocation ?? LOCAL_INVOCATION
  const say = j?.say ?? ((line: string) => process.stderr.write(`${line}\n`))
  const measuredBy = measuredByThisProcess(invocation)
  // Before each write (the measurement file, a run set aside, a run kept): a writer that lost the run stops here.
  const fence = () => {
    if (j?.lockDir) checkWriter(j.lockDir, invocation)
  }
  const warmupsOf = (label: string) => ((policy.warmupArms?.includes(label) ?? true) ? policy.warmupRuns : 0)
  const slots = new Map(
    arms.map((arm) => {
      const extra = JSON.stringify({
        journal: JOURNAL_FORMAT,
        profile: options.profile.name,
        monitorIntervalMs: options.monitor?.intervalMs ?? null,
        warmups: warmupsOf(arm.config.label),
      })
      return [arm.config.label, configKey(arm.config, arm.input, extra)] as const
    }),
  )
  const environment = (await j?.environment) ?? {}
  const keys = new Map<string, Promise<RunKey>>()
  const keyOf = (arm: (typeof arms)[number]) => {
    let key = keys.get(arm.config.label)
    if (!key) {
      key = runKey(environment, {
        config: arm.config,
        input: arm.input,
        monitorIntervalMs: options.monitor?.intervalMs ?? null,
      })
      keys.set(arm.config.label, key)
    }
    return key
  }
  const name = j?.purpose?.name ?? arms.map((a) => a.config.label).join(' + ')
  if (j?.purpose && j.describe) {
    const { provenance, thresholds } = await j.describe(arms.map((a) => a.input))
    fence()
    // Keyed by the arms' labels and slots: the capacity suite's top-ups share the planned arms' record and slot, and
    // each is a measurement of its own (a key of slots alone let each top-up's file replace the one before).
    const armsKey = arms.map((a) => `${a.config.label}\u0000${slots.get(a.config.label)}`).join('\u0001')
    await writeMeasurementEntry(options.workDir, `${slug(j.purpose.id)}-${hash8(armsKey)}`, {
      format: JOURNAL_FORMAT,
      purpose: j.purpose,
      arms: await Promise.all(
        arms.map(async (a) => ({ label: a.config.label, slot: slots.get(a.config.label)!, key: await keyOf(a) })),
      ),
      plannedRuns: policy.maxRuns,
      provenance,
      thresholds,
      startedAt: new Date().toISOString(),
    })
  }
  let found = 0
  for (const arm of arms)
    found += await keptElsewhere(
      join(options.workDir, slots.get(arm.config.label)!),
      arm.config.label,
      await keyOf(arm),
      invocation,
    )
  // The one count every output gives: measured runs (warm-ups apart), as a partial record's `kept`.
  const plannedMeasured = arms.length * policy.maxRuns
  if (found > 0 && j)
    say(`continuing ${j.runId}: ${name}: ${Math.min(found, plannedMeasured)} of ${plannedMeasured} measured runs kept`)

  const reused = new Set<RunObservation>()
  let measuredAgain = 0
  let fromEarlier = 0
  let measuredNow = 0
  const byLabel = new Map(arms.map((a) => [a.config.label, a]))
  return {
    slotDir: (arm) => join(options.workDir, slots.get(arm.config.label)!),
    reused,
    async run(arm, label, measure) {
      const full = byLabel.get(arm.config.label)!
      const dir = join(options.workDir, slots.get(arm.config.label)!, slug(label))
      const key = await keyOf(full)
      fence()
      const outcome = await takeKeptRun(dir, key)
      if (outcome.state === 'kept') {
        const { observation, measuredBy: by } = outcome.kept
        const earlier = by.invocation !== invocation
        const shown = earlier ? { ...observation, measured: { ...observation.measured, keptFrom: by } } : observation
        if (earlier) fromEarlier++
        reused.add(shown)
        return { observation: shown, reused: true }
      }
      if (outcome.why) {
        measuredAgain++
        say(`${j?.runId ?? 'run'}: ${label}: measured again: ${outcome.why}`)
      }
      const lease = watchLease(j?.lockDir ?? null, invocation)
      const observation = await measure(lease.signal).finally(lease.stop)
      measuredNow++
      fence()
      await keepRun(dir, key, observation, measuredBy)
      return { observation, reused: false }
    },
    finish() {
      if (fromEarlier === 0 && measuredAgain === 0) return
      say(
        `continuing ${j?.runId ?? 'run'}: ${name}: ${fromEarlier} run(s) kept from earlier invocations, ${measuredNow} measured now${measuredAgain > 0 ? ` (${measuredAgain} measured again)` : ''}`,
      )
    },
  }
}

/** How often a run in flight checks that its invocation still holds the run: a timer overdue after a suspension fires at once. */
const LEASE_CHECK_MS = 250

/** A signal that aborts (with the WriterLostError) once `lockDir`'s lock is no longer `token`'s; never for null. */
function watchLease(lockDir: string | null, token: string): { signal: AbortSignal; stop: () => void } {
  const controller = new AbortController()
  if (lockDir === null) return { signal: controller.signal, stop: () => {} }
  const timer = setInterval(() => {
    try {
      checkWriter(lockDir, token)
    } catch (error) {
      if (!(error instanceof WriterLostError)) return // a read that failed: the write's own check decides
      clearInterval(timer)
      controller.abort(error)
    }
  }, LEASE_CHECK_MS)
  timer.unref()
  return { signal: controller.signal, stop: () => clearInterval(timer) }
}

/**
 * Completed runs of `arm` in its slot that an earlier invocation kept with this key: what a continuation will reuse.
 * By label too: a capacity top-up shares the planned arm's slot, and those runs are not the top-up's.
 */
async function keptElsewhere(slotDir: string, arm: string, key: RunKey, invocation: string): Promise<number> {
  const names = await readdir(slotDir).catch(() => [] as string[])
  let count = 0
  for (const name of names) {
    if (/\.attempt-\d+$/.test(name)) continue
    const reading = await readRunEntry(join(slotDir, name))
    if (reading.state !== 'kept') continue
    const { entry } = reading
    if (!isRunOf(entry.measured.label, arm) || entry.measured.warmup) continue
    if (entry.measuredBy.invocation === invocation) continue
    if (runRefusal(entry, key, true) === null) count++
  }
  return count
}
