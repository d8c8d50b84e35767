/**
 * One preparation at a time of an entry of the cache of other revisions (prepare.ts). Two `npm run bench -- --against
 * REV` started together on an empty cache each added, removed and `npm ci`-ed the same worktree under the other, and
 * both failed (`binding.gyp not found`, `ENOTEMPTY`). The preparer holds `<entry>.lock` (beside the entry, which git
 * and its cleanup remove and make again) with its host, pid and start, and touches it every HEARTBEAT_MS while its
 * `npm ci` runs: the file's mtime is its heartbeat. Another invocation waits for it (up to `waitMs`), then finds the
 * checkout whole and reuses it. A holder is gone when its pid is dead on this host (Ctrl-C, a crash) or its heartbeat
 * is older than `staleMs` (a host that is down, where no pid can be asked): its lock is taken over, and said so.
 * Own module, not src/results/writer-lock.ts: benchmarks/ imports src/platform only, and that lock guards run folders
 * with messages of its own.
 */
import { randomBytes } from 'node:crypto'
import { link, readFile, rename, rm, stat, utimes } from 'node:fs/promises'
import os from 'node:os'
import { writeFileAtomicNew } from '../../../src/platform/atomic-write.ts'
import { CodedError } from '../../../src/platform/coded-error.ts'
import { pidAlive } from '../../../src/platform/pid-alive.ts'

export const HEARTBEAT_MS = 5_000
/** Twelve heartbeats: a holder's loop busy for a minute is rare; a dead host's lock is cleared within one. */
export const DEFAULT_STALE_MS = 60_000
/** A cold `npm ci` with the NVML addon's build takes minutes; a live holder past this is refused. */
export const DEFAULT_WAIT_MS = 20 * 60_000
const POLL_MS = 200

export interface CacheLockOptions {
  /** How long to wait for a live holder before refusing. */
  waitMs: number
  /** A holder whose heartbeat is older than this is gone; at least 3 x HEARTBEAT_MS. */
  staleMs: number
  log: (line: string) => void
}

export interface HeldCacheLock {
  /** Stops the heartbeat and removes the lock while it is still this holder's. */
  release(): Promise<void>
}

export class CacheLockBusyError extends CodedError<'CACHE_LOCK_BUSY'> {
  override name = 'CacheLockBusyError'
}

interface Holder {
  token: string
  host: string
  pid: number
  since: string
}

interface LockRead {
  holder: Holder | null
  heartbeatMs: number
  /** Which file was read: a taker checks that the file it set aside is this one, not a fresh lock made since. */
  ino: number
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms))

async function readLock(lock: string): Promise<LockRead | null> {
  try {
    const info = await stat(lock)
    const holder = await readFile(lock, 'utf8').then(
      (text) => JSON.parse(text) as Holder,
      () => null,
    )
    return { holder, heartbeatMs: info.mtimeMs, ino: info.ino }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

function describeHolder(holder: Holder | null): string {
  return holder
    ? `pid ${holder.pid} on host ${holder.host} (since ${holder.since})`
    : 'a holder whose lock is unreadable'
}

/** Why the holder is gone, or null while it may be alive. */
function goneBecause(read: LockRead, nowMs: number, staleMs: number): string | null {
  const quietMs = nowMs - read.heartbeatMs
  if (quietMs > staleMs)
    return `no heartbeat for ${Math.round(quietMs / 1000)} s (stale after ${Math.round(staleMs / 1000)} s)`
  const h = read.holder
  if (h && h.host === os.hostname() && !pidAlive(h.pid)) return `pid ${h.pid} is gone`
  return null
}

/**
 * Sets a gone holder's lock aside; false when the file there was no longer the one judged gone (another taker was
 * quicker and made its own): that one is put back, never removed.
 */
async function setAside(lock: string, read: LockRead): Promise<boolean> {
  const aside = `${lock}.gone-${randomBytes(4).toString('hex')}`
  try {
    await rename(lock, aside)
  } catch {
    return false // gone already: released, or set aside by another taker
  }
  const movedIno = (await stat(aside)).ino
  if (movedIno !== read.ino) await link(aside, lock).catch(() => {})
  await rm(aside, { force: true })
  return movedIno === read.ino
}

function startHeartbeat(lock: string, token: string): () => void {
  const timer = setInterval(() => {
    readLock(lock)
      .then((read) => {
        if (read?.holder?.token !== token) return
        const now = new Date()
        return utimes(lock, now, now)
      })
      // A vanished file or a full disk: the next beat tries again; a lock left quiet is taken over, as it should be.
      .catch(() => {})
  }, HEARTBEAT_MS)
  timer.unref()
  return () => clearInterval(timer)
}

/**
 * Takes the lock of the cache entry `entry` (a directory), waiting for a live holder up to `waitMs`, taking over a
 * gone one's (one line to `log`).
 * @throws CacheLockBusyError naming the holder (pid, host, since), the entry and the lock file, once `waitMs` is spent
 */
export async function lockCacheEntry(entry: string, options: CacheLockOptions): Promise<HeldCacheLock> {
  if (options.staleMs < 3 * HEARTBEAT_MS)
    throw new RangeError(
      `staleMs ${options.staleMs}: under 3 heartbeats (${3 * HEARTBEAT_MS} ms) a live holder is lost`,
    )
  const lock = `${entry}.lock`
  const token = randomBytes(8).toString('hex')
  const deadlineMs = Date.now() + options.waitMs
  let toldWaiting = false
  for (;;) {
    const mine: Holder = { token, host: os.hostname(), pid: process.pid, since: new Date().toISOString() }
    // Made whole, then linked into place (fails when there is one): no reader ever sees a half-written lock.
    if (await writeFileAtomicNew(lock, JSON.stringify(mine))) {
      const stopHeartbeat = startHeartbeat(lock, token)
      return { release: () => release(lock, token, stopHeartbeat) }
    }
    const read = await readLock(lock)
    if (read === null) continue
    const nowMs = Date.now()
    const gone = goneBecause(read, nowMs, options.staleMs)
    if (gone !== null) {
      if (await setAside(lock, read))
        options.log(`took over the lock of ${entry} from ${describeHolder(read.holder)}: ${gone}`)
      continue
    }
    if (nowMs >= deadlineMs) throw busy(entry, lock, read.holder, options.waitMs)
    if (!toldWaiting) options.log(`waiting for ${describeHolder(read.holder)} to finish preparing ${entry}`)
    toldWaiting = true
    await sleep(Math.min(POLL_MS, deadlineMs - nowMs))
  }
}

function busy(entry: string, lock: string, holder: Holder | null, waitMs: number): CacheLockBusyError {
  const who = holder ? `pid ${holder.pid} on host ${holder.host} since ${holder.since}` : 'a holder (lock unreadable)'
  return new CacheLockBusyError(
    'CACHE_LOCK_BUSY',
    `${entry} is being prepared by ${who}; gave up after waiting ${waitMs / 1000} s: let it finish, or if that process is gone remove ${lock}`,
  )
}

async function release(lock: string, token: string, stopHeartbeat: () => void): Promise<void> {
  stopHeartbeat()
  const read = await readLock(lock)
  if (read?.holder?.token === token) await rm(lock, { force: true })
}
