import type { ProcessTree } from './process-tree.ts'

/**
 * The process-wide registry of running targets. While any run is live, one handler per event (`exit`, SIGINT,
 * SIGTERM) kills every live run's process tree, so an interrupted suite (Ctrl-C, a vitest worker being torn down)
 * leaves no pipeline holding a GPU. The handlers are removed when the last run ends, so an idle process keeps its
 * normal signal behaviour. SIGKILL of this process cannot be trapped: the per-run watchdog (watchdog.ts) covers it.
 */

const live = new Set<ProcessTree>()
const SIGNALS = ['SIGINT', 'SIGTERM'] as const
const EXIT_GRACE_MS = 1_000

function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms)
}

/**
 * Synchronously ends every live run: SIGTERM, up to `graceMs` for the trees to go, then SIGKILL. Blocks the thread;
 * meant for exit and signal handlers, where nothing asynchronous can run.
 */
export function killAllRunsSync(graceMs = EXIT_GRACE_MS): void {
  const trees = [...live]
  for (const tree of trees) tree.signal('SIGTERM')
  const deadline = performance.now() + graceMs
  while (trees.some((t) => t.survivors().length > 0) && performance.now() < deadline) sleepSync(20)
  for (const tree of trees) if (tree.survivors().length > 0) tree.signal('SIGKILL')
}

function onExit(): void {
  killAllRunsSync()
}

function onSignal(signal: NodeJS.Signals): void {
  killAllRunsSync()
  live.clear()
  uninstall()
  // Only re-raise when nobody else listens: then the default action (terminate) is what the sender expected.
  if (process.listenerCount(signal) === 0) process.kill(process.pid, signal)
}

function install(): void {
  process.on('exit', onExit)
  for (const signal of SIGNALS) process.on(signal, onSignal)
}

function uninstall(): void {
  process.off('exit', onExit)
  for (const signal of SIGNALS) process.off(signal, onSignal)
}

/** Registers a running tree; returns the function that unregisters it once the run is cleaned up. */
export function registerLiveRun(tree: ProcessTree): () => void {
  if (live.size === 0) install()
  live.add(tree)
  return () => {
    if (live.delete(tree) && live.size === 0) uninstall()
  }
}

/** How many runs are live in this process (for tests and teardown checks). */
export function liveRunCount(): number {
  return live.size
}
