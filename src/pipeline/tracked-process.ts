import { execa } from 'execa'
import type { Command } from './command.ts'
import type { OutputStream } from './error-line.ts'
import type { StreamLine } from './line-splitter.ts'
import { forEachLine, type LineTiming } from './line-stream.ts'
import { readProcStat } from './proc.ts'
import { type ProcessTree, runMarker, trackProcessTree } from './process-tree.ts'
import { type CleanupResult, terminateTree } from './terminate.ts'
import { startWatchdog, type Watchdog } from './watchdog.ts'

export interface TrackedOptions {
  baseEnv: NodeJS.ProcessEnv
  graceMs: number
  timeoutMs?: number
  abortSignal?: AbortSignal
  pollIntervalMs: number
  /** Registers the tree with the process-wide interrupt handlers; returns the unregister function. */
  register: (tree: ProcessTree) => () => void
  /**
   * Each output line (stdout and stderr, in arrival order; `\n`, `\r\n` and `\r` end one, line-splitter.ts); `atMs`
   * since spawn, when it ended; `stream` says which pipe it came from; `startedAtMs` when its first byte came
   * (line-stream.ts LineTiming).
   */
  onLine: (line: StreamLine, atMs: number, stream: OutputStream, startedAtMs: number) => void
  /** Each chunk of output as its bytes, before it is split into lines (a pass-through keeps them as written). */
  onChunk?: (chunk: Buffer, stream: OutputStream) => Promise<void> | undefined | void
}

export interface TrackedExit {
  exitCode: number | null
  signal: string | null
  timedOut: boolean
  aborted: boolean
  /** Spawn to root exit. */
  wallMs: number
  pids: number[]
  cleanup: CleanupResult
  /** Set when the program could not be started at all (ENOENT, EACCES). */
  spawnError: string | null
}

// After the tree is gone the pipes close at once; this only bounds a pipe held by something we never saw.
const STREAM_DRAIN_MS = 2_000

function watchTree(tree: ProcessTree, watchdog: Watchdog, rootPid: number, intervalMs: number) {
  let seen = 0
  const poll = () => {
    tree.poll()
    const pids = tree.pids()
    for (const pid of pids.slice(seen)) {
      const stat = readProcStat(pid)
      if (stat && stat.pgid !== rootPid) watchdog.addPid(pid)
    }
    seen = pids.length
  }
  poll()
  return setInterval(poll, intervalMs)
}

/**
 * Spawns `command` detached (its own session and process group) with stdin closed, tracks its tree, ends it on
 * timeout or abort, and sweeps orphans when the root exits. Resolves once the tree is gone and output is drained.
 */
export async function spawnTracked(command: Command, options: TrackedOptions): Promise<TrackedExit> {
  const t0 = performance.now()
  // Inherited by every process the target starts, so the end-of-run scan finds a daemon that left no link.
  const marker = runMarker()
  const subprocess = execa(command.file, command.args, {
    cwd: command.cwd,
    env: { ...options.baseEnv, ...command.env, [marker]: '1' },
    extendEnv: false,
    detached: true,
    cleanup: false,
    stdin: 'ignore',
    buffer: false,
    reject: false,
  })
  const rootExit = new Promise<[number | null, string | null]>((resolve) => {
    subprocess.nodeChildProcess.once('exit', (code, signal) => resolve([code, signal]))
    subprocess.nodeChildProcess.once('error', () => resolve([null, null]))
  })
  const at = () => performance.now() - t0
  const drained = Promise.all([
    ...(['stdout', 'stderr'] as const).map((name) => {
      const stream = subprocess[name]
      // A promise from onChunk (the log file behind) pauses this pipe until it settles (line-stream.ts).
      const onChunk = options.onChunk && ((chunk: Buffer) => options.onChunk?.(chunk, name))
      const onLine = (line: StreamLine, t: LineTiming) => options.onLine(line, t.atMs, name, t.startedAtMs)
      return stream && forEachLine(stream, onLine, onChunk, undefined, at)
    }),
  ])
  const pid = subprocess.pid
  if (pid === undefined) {
    const result = await subprocess
    const why = `cannot start '${command.file}': ${result.code ?? result.shortMessage}`
    const cleanup: CleanupResult = { signalsSent: [], escapees: [], survivors: [] }
    return {
      exitCode: null,
      signal: null,
      timedOut: false,
      aborted: false,
      wallMs: 0,
      pids: [],
      cleanup,
      spawnError: why,
    }
  }
  return superviseRun(pid, subprocess, { options, t0, rootExit, drained, marker })
}

interface Supervision {
  options: TrackedOptions
  t0: number
  rootExit: Promise<[number | null, string | null]>
  drained: Promise<unknown>
  marker: string
}

async function superviseRun(pid: number, subprocess: PromiseLike<unknown>, s: Supervision): Promise<TrackedExit> {
  const { options } = s
  const tree = trackProcessTree(pid, s.marker)
  const unregister = options.register(tree)
  const watchdog = startWatchdog(pid, options.graceMs, s.marker)
  const poller = watchTree(tree, watchdog, pid, options.pollIntervalMs)
  let ending: Promise<CleanupResult> | null = null
  const state = { timedOut: false, aborted: false }
  const end = (why: 'timedOut' | 'aborted') => {
    if (ending) return
    state[why] = true
    ending = terminateTree(tree, options.graceMs)
  }
  const timer = options.timeoutMs ? setTimeout(() => end('timedOut'), options.timeoutMs) : null
  const onAbort = () => end('aborted')
  if (options.abortSignal?.aborted) onAbort()
  options.abortSignal?.addEventListener('abort', onAbort, { once: true })
  const [exitCode, signal] = await s.rootExit
  const wallMs = performance.now() - s.t0
  if (timer) clearTimeout(timer)
  options.abortSignal?.removeEventListener('abort', onAbort)
  clearInterval(poller)
  tree.poll()
  // Anything left once the root is gone is an orphan: the same terminate path sweeps it.
  const cleanup = await (ending ?? terminateTree(tree, options.graceMs))
  await Promise.race([Promise.all([s.drained, subprocess]), new Promise((r) => setTimeout(r, STREAM_DRAIN_MS))])
  watchdog.release()
  unregister()
  const ours = state.timedOut || state.aborted
  return { exitCode, signal: ours ? null : signal, ...state, wallMs, pids: tree.pids(), cleanup, spawnError: null }
}
