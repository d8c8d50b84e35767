import { setTimeout as sleep } from 'node:timers/promises'
import type { ProcessTree } from './process-tree.ts'

/** What cleanup did to a run's process tree, and what (if anything) could not be killed. */
export interface CleanupResult {
  signalsSent: ('SIGTERM' | 'SIGKILL')[]
  /** Processes outside the group (setsid/setpgid escapees) that were signalled one by one. */
  escapees: number[]
  /** Processes of the tree still alive after SIGKILL (should always be empty; a D-state process can linger). */
  survivors: { pid: number; comm: string }[]
}

const POLL_MS = 25
const KILL_WAIT_MS = 2_000

async function waitGone(tree: ProcessTree, waitMs: number): Promise<boolean> {
  const deadline = performance.now() + waitMs
  for (;;) {
    if (tree.survivors().length === 0) return true
    if (performance.now() >= deadline) return false
    await sleep(POLL_MS)
  }
}

/**
 * Ends every process of the tree: SIGTERM to the group (and escapees), SIGKILL after `graceMs`, then verifies in /proc
 * that nothing of the tree is left. Does nothing (and sends nothing) when the tree is already gone.
 */
export async function terminateTree(tree: ProcessTree, graceMs: number): Promise<CleanupResult> {
  const result: CleanupResult = { signalsSent: [], escapees: [], survivors: [] }
  tree.poll()
  if (tree.survivors().length === 0) return result
  result.signalsSent.push('SIGTERM')
  result.escapees.push(...tree.signal('SIGTERM'))
  if (!(await waitGone(tree, graceMs))) {
    result.signalsSent.push('SIGKILL')
    for (const pid of tree.signal('SIGKILL')) if (!result.escapees.includes(pid)) result.escapees.push(pid)
    await waitGone(tree, KILL_WAIT_MS)
  }
  result.survivors = tree.survivors().map((s) => ({ pid: s.pid, comm: s.comm }))
  return result
}
