/**
 * Finds the target's process tree while it runs, for the monitor's attribution. The runner spawns the target detached
 * (its own session: sid = pgid = root PID) as a direct child of this process and does not hand the tree out, so we
 * watch this process's children for a new session leader that appeared after `watchForTarget` was called.
 */

import type { TargetTree } from '../monitor/monitor.ts'
import { readChildren, readProcStat } from '../target/proc.ts'
import { trackProcessTree } from '../target/process-tree.ts'

const DISCOVERY_POLL_MS = 25

export interface TargetWatch {
  /** Stops watching; later calls do nothing. */
  stop(): void
}

function sessionLeaders(): number[] {
  return (readChildren(process.pid) ?? []).filter((pid) => readProcStat(pid)?.sid === pid)
}

/**
 * Calls `onFound` once with the tree of the first detached child started after this call (never when none appears).
 * The tree's `pids()` polls /proc, so the monitor's periodic refresh sees workers as they start.
 */
export function watchForTarget(onFound: (tree: TargetTree) => void): TargetWatch {
  const before = new Set(sessionLeaders())
  let timer: NodeJS.Timeout | null = null
  const check = () => {
    const root = sessionLeaders().find((pid) => !before.has(pid))
    if (root === undefined) return
    stop()
    const tree = trackProcessTree(root)
    onFound({
      rootPid: root,
      pids: () => {
        tree.poll()
        return tree.pids()
      },
    })
  }
  const stop = () => {
    if (timer) clearInterval(timer)
    timer = null
  }
  timer = setInterval(check, DISCOVERY_POLL_MS)
  timer.unref()
  return { stop }
}
