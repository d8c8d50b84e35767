import { relative } from 'node:path'
import type { Reporter, TestModule, TestProject, TestSpecification } from 'vitest/node'
import {
  type ArmProgress,
  applyLine,
  armOf,
  doneLine,
  droppedText,
  type EarlierProgress,
  fileForecastMs,
  forecastDisagreement,
  type InvocationStatus,
  type LedgerLine,
  ledgerTail,
  measurementPlanLine,
  newTally,
  type PriorForecast,
  type ProgressContext,
  priorFileMs,
  priorRatio,
  type RunPhase,
  type RunPosition,
  reusedLine,
  runEstimateMs,
  runLine,
  runsPlannedSoFar,
  startLine,
  suiteName,
  timeLeft,
  waitingLine,
  willSkip,
  withoutForecasts,
} from '../src/engine/invocation-progress/index.ts'
import { REPO_ROOT } from '../src/pipeline/profiles.ts'

export interface RunLinesOptions {
  /** Print lines through this function (tests); default process.stdout. */
  write?: (line: string) => void
  /** ms since the invocation started; default this process's uptime (the job limit counts from its start). */
  elapsedMs?: () => number
  /** ms since the epoch, the ledger's clock; default Date.now. */
  nowMs?: () => number
  /** A `[running]` line once this long passes without a line of ours while a file runs; default 45 s. */
  quietMs?: number
  /** How often the ledger is read between vitest's own events; default 250 ms (a stop signal gives little time). */
  pollMs?: number
}

type Reused = { warmups: number; runs: number; from: 'earlier' | 'shared' }

/**
 * Says where an invocation of the gpu project stands: at its start, the files it runs and how long it should take (by
 * earlier invocations under the same key and plan, else by each file's plan at the host's cost prior, scaled once a
 * file has ended by how far it was off here; or after the first run); after every run, in one `[run]` line, the
 * suite, the configuration, run n of m, the run's wall time, and the invocation's time elapsed and forecast left (an
 * earlier invocation's forecast dropped, said once, when this one's runs take over twice or under half as long as its
 * runs of the same configuration: src/engine/invocation-progress/forecast-check.ts); a `[running]`
 * line when 45 s pass without one (a long run, inputs being made). The workers write each run to the invocation's
 * progress ledger (benchmarks/support/run-ledger.ts); this reads it as it grows, on a timer and before each of vitest's
 * own events, so a run's line comes before the lines the run's end brings (its annotations, the capacity answer).
 * Place it first among the reporters: vitest calls their hooks in order.
 */
export default class RunLinesReporter implements Reporter {
  readonly #write: (line: string) => void
  readonly #elapsedMs: () => number
  readonly #nowMs: () => number
  readonly #quietMs: number
  readonly #pollMs: number
  #specs: TestSpecification[] = []
  #files: string[] = []
  #progress: ProgressContext | null = null
  /** What earlier invocations forecast; their forecasts dropped once this invocation's runs disagree with theirs. */
  #earlier: EarlierProgress | null = null
  /** What each file's plan costs by the host's prior; no longer used once a forecast was dropped. */
  #prior: PriorForecast | null = null
  #read: (() => LedgerLine[]) | null = null
  #tally = newTally()
  #announced = new Set<string>()
  #reused = new Map<string, Map<string, Reused>>()
  #runsMs = 0
  #running: string | null = null
  #lastLineMs = 0
  #timer: NodeJS.Timeout | null = null

  constructor(options: RunLinesOptions = {}) {
    this.#write = options.write ?? ((line) => process.stdout.write(`${line}\n`))
    this.#elapsedMs = options.elapsedMs ?? (() => process.uptime() * 1000)
    this.#nowMs = options.nowMs ?? Date.now
    this.#quietMs = options.quietMs ?? 45_000
    this.#pollMs = options.pollMs ?? 250
  }

  onTestRunStart(specifications: readonly TestSpecification[]): void {
    this.#specs = [...specifications]
  }

  onTestModuleQueued(testModule: TestModule): void {
    this.#begin(testModule.project)
    this.#drain()
  }

  onTestModuleStart(testModule: TestModule): void {
    this.#begin(testModule.project)
    this.#drain()
    if (this.#progress) this.#running = relative(REPO_ROOT, testModule.moduleId)
  }

  onTestModuleEnd(): void {
    this.#drain()
    this.#running = null
  }

  onTestCaseAnnotate(): void {
    this.#drain()
  }

  onUserConsoleLog(): void {
    this.#drain()
  }

  onTestCaseResult(): void {
    this.#drain()
  }

  onTestRunEnd(): void {
    if (this.#timer) clearInterval(this.#timer)
    this.#timer = null
    if (!this.#read) return
    this.#drain()
    for (const measurement of this.#reused.keys()) this.#sayReused(measurement)
    const t = this.#tally
    if (t.measured + t.reused.earlier > 0)
      this.#say(
        doneLine({ elapsedMs: this.#elapsedMs(), measured: t.measured, reused: t.reused.earlier }, this.#runsMs),
      )
  }

  /** The first module of a project that keeps a progress ledger (the gpu project where it measures): the start line. */
  #begin(project: TestProject): void {
    if (this.#read) return
    const progress = (project.getProvidedContext() as { progress?: ProgressContext | null }).progress
    if (!progress) return
    this.#progress = progress
    this.#earlier = progress.earlier
    this.#prior = progress.prior ?? null
    this.#read = ledgerTail(progress.ledger)
    const files = this.#specs
      .filter((s) => s.project.name === project.name)
      .map((s) => relative(REPO_ROOT, s.moduleId))
      .sort()
    // A file whose tests will skip is not counted: it runs nothing (its skip line says why).
    this.#files = files.filter((f) => willSkip(this.#prior, f) === null)
    this.#say(startLine({ ...progress, files }))
    this.#timer = setInterval(() => this.#tick(), this.#pollMs)
    this.#timer.unref()
  }

  #tick(): void {
    this.#drain()
    if (this.#running && this.#nowMs() - this.#lastLineMs >= this.#quietMs) this.#sayWaiting()
  }

  #drain(): void {
    for (const line of this.#read?.() ?? []) this.#handle(line)
  }

  #handle(line: LedgerLine): void {
    if (line.type !== 'run') {
      applyLine(this.#tally, line)
      if (line.type === 'start' && !this.#announced.has(line.measurement)) this.#sayPlan(line.measurement, line.file)
      if (line.type === 'end') this.#sayReused(line.measurement)
      return
    }
    // Run n of m as planned before it ended: a run that fails ends its arm's plan there.
    const arm = armOf(this.#tally, line.measurement, line.arm)
    const at = this.#position(line.file, line.arm, line.phase, line.n, arm)
    applyLine(this.#tally, line)
    if (line.reused !== null) {
      const byArm = this.#reused.get(line.measurement) ?? new Map<string, Reused>()
      const r = byArm.get(line.arm) ?? { warmups: 0, runs: 0, from: line.reused }
      r[line.phase === 'warm-up' ? 'warmups' : 'runs'] += 1
      this.#reused.set(line.measurement, byArm.set(line.arm, r))
      return
    }
    this.#runsMs += line.wallMs
    this.#sayReused(line.measurement)
    // Checked first: a forecast this run drops is gone from the line's own time left.
    const dropped = this.#checkForecast(line)
    this.#say(runLine(at, line, this.#status(), dropped))
  }

  /** Drops the earlier invocations' forecast once this invocation's runs disagree with theirs; what to say, or null. */
  #checkForecast(line: Extract<LedgerLine, { type: 'run' }>): string | null {
    const earlier = this.#earlier
    if (!earlier || Object.keys(earlier.files).length === 0) return null
    const disagreement = forecastDisagreement(earlier, this.#tally, line)
    if (!disagreement) return null
    // Neither source forecasts the files not started any more: the host is not the one the forecast stood on.
    this.#earlier = withoutForecasts(earlier)
    this.#prior = null
    return droppedText(disagreement)
  }

  #position(file: string, arm: string, phase: RunPhase, n: number, a: ArmProgress | null): RunPosition {
    const of = Math.max(n, a?.planned[phase] ?? n)
    return { suite: suiteName(file), arm, phase, n, of, upTo: phase === 'run' && (a?.minRuns ?? of) < of }
  }

  /** What a measurement still runs, said as its first run starts (a measurement given back whole says nothing). */
  #sayPlan(measurement: string, file: string): void {
    this.#announced.add(measurement)
    this.#sayReused(measurement)
    const m = this.#tally.measurements.get(measurement)
    if (!m) return
    const arms = [...m.arms.values()].map((a) => ({
      label: a.label,
      warmups: Math.max(0, a.planned['warm-up'] - a.ended['warm-up']),
      runs: Math.max(0, a.planned.run - a.ended.run),
      upTo: a.minRuns < a.planned.run,
    }))
    this.#say(measurementPlanLine(suiteName(file), arms, this.#status()))
  }

  /** The runs of a measurement the journal gave back so far, one line per configuration. */
  #sayReused(measurement: string): void {
    const byArm = this.#reused.get(measurement)
    if (!byArm) return
    this.#reused.delete(measurement)
    const file = this.#tally.measurements.get(measurement)?.file ?? ''
    for (const [arm, given] of byArm) this.#say(reusedLine({ suite: suiteName(file), arm }, given, this.#status()))
  }

  #sayWaiting(): void {
    const flight = this.#tally.inFlight
    const suite = suiteName(flight?.file ?? this.#running ?? '')
    if (!flight) {
      this.#say(waitingLine({ suite, run: null }, this.#status()))
      return
    }
    const at = this.#position(
      flight.file,
      flight.arm,
      flight.phase,
      flight.n,
      armOf(this.#tally, flight.measurement, flight.arm),
    )
    const run = { ...at, forMs: this.#nowMs() - flight.sinceMs, estimateMs: runEstimateMs(this.#tally, flight) }
    this.#say(waitingLine({ suite, run }, this.#status()))
  }

  #status(): InvocationStatus {
    const t = this.#tally
    // The prior, scaled by how far it was off for the files ended here (1 until one has).
    const ratio = priorRatio(this.#prior, t.fileSpansMs, this.#files)
    const ahead = this.#files
      .filter((f) => !t.filesStarted.has(f))
      .map((file) => ({
        file,
        forecastMs: fileForecastMs(this.#earlier, file) ?? priorFileMs(this.#prior, file, this.#files, ratio),
      }))
    return {
      elapsedMs: this.#elapsedMs(),
      left: timeLeft(t, this.#nowMs(), ahead),
      measured: t.measured,
      planned: runsPlannedSoFar(t),
      reused: t.reused.earlier,
      filesNotStarted: ahead.length,
    }
  }

  #say(line: string): void {
    this.#lastLineMs = this.#nowMs()
    this.#write(line)
  }
}
