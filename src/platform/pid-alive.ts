/**
 * Whether a process of this host still runs, the one probe every owner check uses (the writer lock, the revision
 * cache's lock, left temporary directories, the report staging, the orphan check). Signal 0 probes without sending
 * anything; EPERM means it runs, as another user. A zombie has ended: it only waits for its parent to reap it, which
 * in a container whose init does not reap is forever, so it counts as gone (its lock, its temporary directory are
 * free). /proc is Linux's; elsewhere the signal's answer stands.
 */
import { readFileSync } from 'node:fs'

/** The state field of /proc/PID/stat (`R`, `S`, `Z`, ...), null where there is none. */
function procState(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1')
    // The command name is in parentheses and may hold spaces: the state follows its closing one.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? null
  } catch {
    return null
  }
}

export function pidAlive(pid: number): boolean {
  if (!Number.isSafeInteger(pid) || pid <= 0) return false
  try {
    process.kill(pid, 0)
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false
  }
  return procState(pid) !== 'Z'
}
