/**
 * A graceful stop of an invocation (SIGTERM from a job's time limit or `timeout`, SIGINT from Ctrl-C), handled in the
 * process that holds the run's writer lock (vitest's main process). Everything here is synchronous: vitest's own
 * handler, which runs first, ends the process on the next turn of the event loop, and its workers die with it; a
 * synchronous handler holds that turn until it is done. In order:
 * 1. the signal reaches the workers (a `kill` of the main process alone never did), whose live-runs handler ends each
 *    target's process group (SIGTERM, then SIGKILL: src/pipeline/live-runs.ts); the run in flight keeps no `run.json`,
 *    so it is measured again on continuing;
 * 2. the run's state becomes `interrupted` and the writer lock is released;
 * 3. the reports are written by `virnucpro-bench report` over the run directory, which reads the finished runs of every
 *    measurement that has no record yet as a partial record (no verdict, its figures shown);
 * 4. one line says how many runs are kept and how to continue; the process exits 130 (SIGINT) or 143 (SIGTERM).
 * A SIGKILL can be handled by nobody: it loses the run in flight, and the next invocation finds the lock gone quiet.
 */
import { spawnSync } from 'node:child_process'
import { readAllStats, readProcStat } from '../pipeline/proc.ts'
import { storeInvocationSync } from '../results/invocations.ts'
import { countKeptRunsSync } from '../results/run-journal.ts'
import { type RunState, writeRunStateSync } from '../results/run-state.ts'
import { checkWriter, releaseWriter } from '../results/writer-lock.ts'

const SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const
type StopSignal = keyof typeof SIGNALS

/** Up to this long for the workers to end their targets and go (the runner's grace is 5 s; live-runs' at exit 1 s). */
const WORKERS_GONE_MS = 8_000
/** Up to this long for the reports. */
const REPORT_TIMEOUT_MS = 120_000

export interface StopPlan {
  runId: string
  resultsDir: string
  workDir: string
  token: string
  /** The state written at the start (running); the stop rewrites it as interrupted. */
  state: RunState
  /** The report command: `node <suite>/src/cli.ts`, with `report RESULTS_DIR --out DIR` appended. */
  reportCommand: { file: string; args: string[] }
  reportsDir: string
  /** Where the stop's own lines go; default stderr. */
  say?: (line: string) => void
  /** Ends the process; default process.exit. */
  exit?: (code: number) => void
  /** The processes the signal is passed on to; default this process's children but vitest's watchdog. */
  workers?: () => number[]
}

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/** This process's children but vitest's watchdog (which ends the workers itself once we exit). */
function workers(): number[] {
  return readAllStats()
    .filter((s) => s.ppid === process.pid && s.state !== 'Z' && !s.comm.includes('watchdog'))
    .map((s) => s.pid)
}

function stopWorkers(signal: StopSignal, pids: number[]): void {
  for (const pid of pids)
    try {
      process.kill(pid, signal)
    } catch {
      // Already gone.
    }
  const deadline = Date.now() + WORKERS_GONE_MS
  // Our event loop is held, so an ended worker stays a zombie until we return: 'Z' counts as gone.
  const alive = () => pids.filter((pid) => (readProcStat(pid)?.state ?? 'Z') !== 'Z')
  while (alive().length > 0 && Date.now() < deadline) sleepSync(50)
}

/** Handles one stop signal as the file's comment says. Exported for the tests; installGracefulStop wires it. */
export function gracefulStop(plan: StopPlan, signal: StopSignal): void {
  const say = plan.say ?? ((line: string) => process.stderr.write(`${line}\n`))
  stopWorkers(signal, (plan.workers ?? workers)())
  try {
    checkWriter(plan.workDir, plan.token)
  } catch (error) {
    // Another invocation holds the run now (this one was suspended past the lease): its state, its reports.
    say(`virnucpro-bench: stopped by ${signal}: ${(error as Error).message}`)
    ;(plan.exit ?? process.exit)(128 + SIGNALS[signal])
    return
  }
  try {
    writeRunStateSync(plan.workDir, { ...plan.state, state: 'interrupted', updatedAt: new Date().toISOString() })
  } catch (error) {
    say(
      `virnucpro-bench: ${(error as Error).message} (the next invocation reads the run as killed; it continues it the same)`,
    )
  }
  releaseWriter(plan.workDir, plan.token)
  const kept = countKeptRunsSync(plan.workDir)
  if (kept > 0) {
    try {
      // So that the reports, and any rebuilt later, say how this invocation ended (a continuation that finishes the
      // run supersedes it: src/results/invocations.ts combinedOutcome).
      storeInvocationSync(plan.resultsDir, {
        finishedAt: new Date().toISOString(),
        outcome: { state: 'interrupted', note: `stopped by ${signal} with ${kept} measured run(s) kept` },
        benchmarks: [],
      })
    } catch (error) {
      say(`virnucpro-bench: ${(error as Error).message}`)
    }
    const report = spawnSync(
      plan.reportCommand.file,
      [...plan.reportCommand.args, 'report', plan.resultsDir, '--out', plan.reportsDir],
      { stdio: ['ignore', 'inherit', 'inherit'], timeout: REPORT_TIMEOUT_MS },
    )
    if (report.status !== 0)
      say(
        `virnucpro-bench: the reports of ${plan.runId} were not written (report exit ${report.status ?? report.signal})`,
      )
  }
  say(
    `virnucpro-bench: stopped by ${signal}: ${kept} measured run${kept === 1 ? '' : 's'} kept (warm-ups apart) in ${plan.workDir}` +
      (kept > 0 ? ` (reports in ${plan.reportsDir}: PROVISIONAL, from the runs kept so far)` : '') +
      `; to continue, run the same command again into the same results directory (a run cut short is measured again; VIRNUCPRO_BENCH_FRESH=1 starts afresh)`,
  )
  ;(plan.exit ?? process.exit)(128 + SIGNALS[signal])
}

/** Installs the stop for SIGINT and SIGTERM; returns the function that removes it (at the invocation's normal end). */
export function installGracefulStop(plan: StopPlan): () => void {
  const handlers = (Object.keys(SIGNALS) as StopSignal[]).map((signal) => {
    const handler = () => gracefulStop(plan, signal)
    process.once(signal, handler)
    return () => process.off(signal, handler)
  })
  return () => {
    for (const off of handlers) off()
  }
}
