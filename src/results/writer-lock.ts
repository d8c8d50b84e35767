/**
 * One writer per work directory. Two invocations on one run ID (the README invites pinning one to merge machines) must
 * never share a work directory: the second would measure into the first one's run folders and set its runs aside. The
 * writer holds `<dir>/.writer.json` (its token, host, pid and start) and touches it every HEARTBEAT_MS; the file's
 * mtime is its heartbeat. A holder is gone when its heartbeat is older than STALE_MS, or at once when it was on this
 * host and its pid is dead (SIGKILL, a crash). A gone holder's lock is taken over (and said so); a live one's is
 * refused with its host, pid and start, after waiting up to `waitMs` for it to end or go quiet: a Slurm job requeued
 * on another node finds the killed job's lock, which no pid check there can clear, and waits for its heartbeat to stop.
 *
 * The lock is a lease, and the token a fence: a writer suspended past STALE_MS (`kill -STOP`, a frozen VM, a laptop
 * lid) is taken over like a dead one, and on waking it still believes it holds the run. So every write of the run
 * (a run's `run.json`, a measurement file, a record, the run's state) first checks that the lock still carries this
 * invocation's token (checkWriter); one that has lost it stops with one line (WriterLostError) and writes nothing
 * more. What is left is the moment between the check and the write, a few milliseconds against a 60 s lease.
 */
import { randomBytes } from 'node:crypto'
import { readFileSync, rmSync, statSync, utimesSync } from 'node:fs'
import { mkdir, open, rename, stat } from 'node:fs/promises'
import os from 'node:os'
import { join } from 'node:path'
import { CodedError } from '../platform/coded-error.ts'
import { pidAlive } from '../platform/pid-alive.ts'

export const WRITER_FILE = '.writer.json'
export const HEARTBEAT_MS = 10_000
export const STALE_MS = 60_000

export interface WriterClaim {
  /** The invocation's token: processes of one invocation (vitest's main and its workers) share it. */
  token: string
  /** The process that holds the lock for the invocation (vitest's main process); default this one. */
  pid?: number
  host?: string
}

interface Holder {
  token: string
  host: string
  pid: number
  startedAt: string
}

export class WriterBusyError extends Error {
  override name = 'WriterBusyError'
}

/** This invocation no longer holds the lock it writes under: `taken-over` by another token, or `gone` (none there). */
export class WriterLostError extends CodedError<'taken-over' | 'gone'> {
  override name = 'WriterLostError'
}

export type Acquired =
  | { state: 'acquired' }
  /** The lock was already this invocation's (another of its processes took it). */
  | { state: 'already-ours' }
  | { state: 'took-over'; from: string }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

export function newWriterToken(): string {
  return randomBytes(8).toString('hex')
}

function readHolder(file: string): { holder: Holder | null; heartbeatMs: number } | null {
  try {
    const heartbeatMs = statSync(file).mtimeMs
    let holder: Holder | null = null
    try {
      holder = JSON.parse(readFileSync(file, 'utf8')) as Holder
    } catch {
      // Cut short while being written: its heartbeat alone says whether its writer is alive.
    }
    return { holder, heartbeatMs }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  }
}

/** Why the holder is gone, or null while it is alive. */
function goneBecause(read: { holder: Holder | null; heartbeatMs: number }, nowMs: number): string | null {
  const quietMs = nowMs - read.heartbeatMs
  if (quietMs > STALE_MS) return `no heartbeat for ${Math.round(quietMs / 1000)} s`
  const h = read.holder
  if (h && h.host === os.hostname() && !pidAlive(h.pid)) return `pid ${h.pid} is gone`
  return null
}

const describe = (read: { holder: Holder | null; heartbeatMs: number }, nowMs: number) => {
  const h = read.holder
  const who = h ? `host ${h.host}, pid ${h.pid}, since ${h.startedAt}` : 'a writer whose lock file is unreadable'
  return `${who} (last heartbeat ${Math.round((nowMs - read.heartbeatMs) / 1000)} s ago)`
}

/**
 * Creates the lock file holding `text`: EEXIST while another holds it. One it created but could not fill (a full disk:
 * the file is made, its bytes refused) is removed, or an empty lock would stand for a writer that never began.
 */
async function createLockFile(file: string, text: string): Promise<void> {
  const handle = await open(file, 'wx')
  try {
    await handle.writeFile(text)
  } catch (error) {
    rmSync(file, { force: true })
    throw error
  } finally {
    await handle.close()
  }
}

/**
 * Takes the writer lock of `dir` for `claim`, waiting up to `waitMs` for a live holder on another host to end or go
 * quiet (a live holder on this host is refused at once: its pid proves it is running).
 * @throws WriterBusyError naming the holder (host, pid, since when) and what to do.
 */
export async function acquireWriter(dir: string, claim: WriterClaim, waitMs = STALE_MS + 15_000): Promise<Acquired> {
  await mkdir(dir, { recursive: true })
  const file = join(dir, WRITER_FILE)
  const mine: Holder = {
    token: claim.token,
    host: claim.host ?? os.hostname(),
    pid: claim.pid ?? process.pid,
    startedAt: new Date().toISOString(),
  }
  const deadline = Date.now() + waitMs
  let tookOver: string | null = null
  for (;;) {
    try {
      await createLockFile(file, JSON.stringify(mine))
      return tookOver ? { state: 'took-over', from: tookOver } : { state: 'acquired' }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error
    }
    const read = readHolder(file)
    if (read === null) continue
    if (read.holder?.token === claim.token) return { state: 'already-ours' }
    const now = Date.now()
    const gone = goneBecause(read, now)
    if (gone !== null) {
      // Renamed, not removed: of two takers only one rename finds the file, so a fresh lock is never removed.
      const aside = join(dir, `.writer.gone-${randomBytes(4).toString('hex')}`)
      const moved = await rename(file, aside).then(
        () => true,
        () => false,
      )
      if (moved) {
        rmSync(aside, { force: true })
        tookOver = `${describe(read, now)}: ${gone}`
      }
      continue
    }
    const sameHost = read.holder?.host === os.hostname()
    if (sameHost || now >= deadline)
      throw new WriterBusyError(
        `${dir} is being written by ${describe(read, now)}: wait for it to end, or give this run another VIRNUCPRO_BENCH_RUN_ID`,
      )
    await sleep(Math.min(2_000, deadline - now))
  }
}

/** Touches the lock while it is `token`'s (the heartbeat); false when it is not (released, or taken over). */
export function beatWriter(dir: string, token: string): boolean {
  const file = join(dir, WRITER_FILE)
  const read = readHolder(file)
  if (read?.holder?.token !== token) return false
  const now = new Date()
  utimesSync(file, now, now)
  return true
}

/**
 * The fence every write of a run passes: returns when `dir`'s lock is still `token`'s, renewing a heartbeat gone stale
 * (the writer was suspended and nobody took the run meanwhile: it is still ours, and now says so); else throws.
 * Synchronous, so signal handlers and exit paths can use it.
 * @throws WriterLostError naming who holds the run now (or that nobody does) and that this invocation writes nothing.
 */
export function checkWriter(dir: string, token: string): void {
  const file = join(dir, WRITER_FILE)
  const read = readHolder(file)
  const lost = (code: 'taken-over' | 'gone', who: string) =>
    new WriterLostError(
      code,
      `${dir}: this invocation lost its writer lock (${who}), as when it was suspended or quiet past ${STALE_MS / 1000} s and another invocation took the run over: it writes nothing more there`,
    )
  if (read === null) throw lost('gone', 'no lock there now')
  if (read.holder?.token !== token) throw lost('taken-over', `now held by ${describe(read, Date.now())}`)
  if (Date.now() - read.heartbeatMs > HEARTBEAT_MS) {
    const now = new Date()
    utimesSync(file, now, now)
  }
}

/** Releases the lock if it is still `token`'s. Synchronous: exit and signal handlers call it. */
export function releaseWriter(dir: string, token: string): void {
  const file = join(dir, WRITER_FILE)
  if (readHolder(file)?.holder?.token === token) rmSync(file, { force: true })
}

/**
 * Beats every HEARTBEAT_MS until stopped or the lock is no longer `token`'s; never keeps the process alive. A lost lock
 * is said by the next write, which checkWriter refuses.
 */
export function startHeartbeat(dir: string, token: string): () => void {
  const timer = setInterval(() => {
    try {
      if (!beatWriter(dir, token)) clearInterval(timer)
    } catch {
      // A full disk or a vanished directory: the next beat tries again; a lock left quiet is taken over, as it should.
    }
  }, HEARTBEAT_MS)
  timer.unref()
  return () => clearInterval(timer)
}

/** Whether `dir`'s writer lock is held by a live writer (used to tell an interrupted run from a running one). */
export async function writerAlive(dir: string): Promise<boolean> {
  const file = join(dir, WRITER_FILE)
  const info = await stat(file).catch(() => null)
  if (!info) return false
  const read = readHolder(file)
  return read !== null && goneBecause(read, Date.now()) === null
}
