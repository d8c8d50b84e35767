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
 *
 * The signal repeated during the stop (Ctrl-C pressed again, a second SIGTERM) once ended it within a second, with no
 * reports and no line: the handler was a `once` one, so with it gone Node gave the signal back its default action
 * (death, even in the middle of the handler), and the report child, in this process group, died of the same group-wide
 * signal. Now the handlers stay for the whole invocation, and the report runs in a session of its own (`detached`), out
 * of reach of the group's signals. Hearing a repeat is the harder part: Node runs signal listeners only from the event
 * loop, which the stop holds, and handing the loop back would let vitest exit (its handler's pending exit) or go on with
 * the run (its pool meets dead workers). So the stop keeps a canary in this process group, a node with no handler that
 * the group's next SIGINT or SIGTERM kills, and its every wait is made of POLL_MS slices that look at the canary: a
 * death by signal is a repeat heard, and a new canary takes its place. A handler could not do this: a node that is still
 * starting has none, and would die unheard. The second signal is said and the stop goes on; the third cuts the wait in
 * progress (the workers', or the report's, whose session is killed), and the stop ends at once with a line saying the
 * reports may be incomplete. A signal sent to this process alone (`kill PID`) reaches no canary: it waits, unheard,
 * until the stop is done; Ctrl-C, Slurm and `timeout` signal the whole group.
 */
import { spawn } from 'node:child_process'
import { readAllStats, readProcStat } from '../pipeline/proc.ts'
import { storeInvocationSync } from '../results/invocations.ts'
import { countKeptRunsSync } from '../results/run-journal.ts'
import { type RunState, writeRunStateSync } from '../results/run-state.ts'
import { checkWriter, releaseWriter } from '../results/writer-lock.ts'
import { endingOf, kill, listenToGroup, pidOf, type RepeatListener, type StopSignal } from './repeated-signals.ts'

const SIGNALS = { SIGINT: 2, SIGTERM: 15 } as const

/** Up to this long for the workers to end their targets and go (the runner's grace is 5 s; live-runs' at exit 1 s). */
const WORKERS_GONE_MS = 8_000
/** Up to this long for the reports. */
const REPORT_TIMEOUT_MS = 120_000
/** How often a wait of the stop looks for a repeated signal: a third one is acted on within this long. */
const POLL_MS = 50

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
  /** Starts hearing repeated signals; default a canary in this process group. */
  listen?: () => RepeatListener
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

interface Repeats {
  listener: RepeatListener
  heard: number
  say: (line: string) => void
}

/**
 * Waits in POLL_MS slices until `done()` or `ms` have passed. A second signal is said; a third cuts the wait ('cut'),
 * as it does every wait after it.
 */
function waitFor(repeats: Repeats, done: () => boolean, ms: number): 'done' | 'timeout' | 'cut' {
  const deadline = Date.now() + ms
  for (;;) {
    const signal = repeats.listener.heard()
    if (signal && ++repeats.heard === 1)
      repeats.say(`virnucpro-bench: ${signal} again: finishing the reports (once more to exit at once)`)
    if (repeats.heard >= 2) return 'cut'
    if (done()) return 'done'
    if (Date.now() >= deadline) return 'timeout'
    sleepSync(POLL_MS)
  }
}

/** True when a third signal cut the wait for the workers. */
function stopWorkers(signal: StopSignal, pids: number[], repeats: Repeats): boolean {
  for (const pid of pids) kill(pid, signal)
  // Our event loop is held, so an ended worker stays a zombie until we return: 'Z' counts as gone.
  const alive = () => pids.filter((pid) => (readProcStat(pid)?.state ?? 'Z') !== 'Z')
  return waitFor(repeats, () => alive().length === 0, WORKERS_GONE_MS) === 'cut'
}

/**
 * Writes the reports with `virnucpro-bench report`, in a session of its own so that a repeated group signal spares it;
 * true when a third signal cut it (its session killed).
 */
function writeReports(plan: StopPlan, repeats: Repeats): boolean {
  const { file, args } = plan.reportCommand
  const notWritten = (why: string) =>
    repeats.say(`virnucpro-bench: the reports of ${plan.runId} were not written (${why})`)
  const pid = pidOf(
    spawn(file, [...args, 'report', plan.resultsDir, '--out', plan.reportsDir], {
      stdio: ['ignore', 'inherit', 'inherit'],
      detached: true,
    }),
  )
  if (pid === undefined) {
    notWritten(`${file} did not start`)
    return false
  }
  const waited = waitFor(repeats, () => endingOf(pid) !== 'running', REPORT_TIMEOUT_MS)
  if (waited !== 'done') kill(-pid, 'SIGKILL')
  const ending = endingOf(pid)
  if (waited === 'timeout') notWritten(`report still running after ${REPORT_TIMEOUT_MS / 1000} s: ended`)
  else if (waited === 'done' && ending !== 'running' && ending.code !== 0)
    notWritten(`report exit ${ending.code ?? ending.signal}`)
  return waited === 'cut'
}

/** The stop's last line: what is kept, where the reports are, how to continue. */
function stoppedLine(plan: StopPlan, signal: StopSignal, kept: number, cut: boolean): string {
  const reports = !cut
    ? ` (reports in ${plan.reportsDir}: PROVISIONAL, from the runs kept so far)`
    : `; the reports in ${plan.reportsDir} may be incomplete (\`virnucpro-bench report ${plan.resultsDir} --out ${plan.reportsDir}\` writes them)`
  return (
    `virnucpro-bench: stopped by ${signal}${cut ? ', then twice more' : ''}: ${kept} measured run${kept === 1 ? '' : 's'} kept (warm-ups apart) in ${plan.workDir}` +
    (kept > 0 ? reports : '') +
    `; to continue, run the same command again into the same results directory (a run cut short is measured again; VIRNUCPRO_BENCH_FRESH=1 starts afresh)`
  )
}

/** Handles one stop signal as the file's comment says. Exported for the tests; installGracefulStop wires it. */
export function gracefulStop(plan: StopPlan, signal: StopSignal): void {
  const say = plan.say ?? ((line: string) => process.stderr.write(`${line}\n`))
  // The workers first: the canary is a child of ours too.
  const pids = (plan.workers ?? workers)()
  const repeats: Repeats = { listener: (plan.listen ?? listenToGroup)(), heard: 0, say }
  const exit = (code: number) => {
    repeats.listener.end()
    ;(plan.exit ?? process.exit)(code)
  }
  let cut = stopWorkers(signal, pids, repeats)
  try {
    checkWriter(plan.workDir, plan.token)
  } catch (error) {
    // Another invocation holds the run now (this one was suspended past the lease): its state, its reports.
    say(`virnucpro-bench: stopped by ${signal}: ${(error as Error).message}`)
    exit(128 + SIGNALS[signal])
    return
  }
  // Even after a third signal: these take milliseconds, and leave the run as one stopped, not killed.
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
    if (!cut) cut = writeReports(plan, repeats)
  }
  say(stoppedLine(plan, signal, kept, cut))
  exit(128 + SIGNALS[signal])
}

/** Installs the stop for SIGINT and SIGTERM; returns the function that removes it (at the invocation's normal end). */
export function installGracefulStop(plan: StopPlan): () => void {
  let stopping = false
  const handlers = (Object.keys(SIGNALS) as StopSignal[]).map((signal) => {
    // `on`, not `once`: while a listener is left, Node keeps the signal from its default action, death, which a signal
    // repeated during the stop met. The stop holds the event loop, so this runs again only if it returned (a test's
    // exit); it hears repeats through its canary.
    const handler = () => {
      if (stopping) return
      stopping = true
      gracefulStop(plan, signal)
    }
    process.on(signal, handler)
    return () => process.off(signal, handler)
  })
  return () => {
    for (const off of handlers) off()
  }
}
