/**
 * Hearing SIGINT and SIGTERM repeated while a graceful stop holds the event loop (graceful-stop.ts says why it must):
 * a canary process in this process group that the group's next signal kills, and reading how a child of ours ended
 * from its zombie, since nothing reaps it while the loop is held.
 */
import { type ChildProcess, spawn } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { constants } from 'node:os'

export type StopSignal = 'SIGINT' | 'SIGTERM'

/** Hears the signals repeated while the stop runs (graceful-stop.ts's comment says why it is a canary). */
export interface RepeatListener {
  /** A SIGINT or SIGTERM heard since the last call, or null. */
  heard: () => StopSignal | null
  end: () => void
}

export type Ending = 'running' | { code: number | null; signal: string | null }

/**
 * How a child of ours ended, read from its zombie: our event loop is held, so nothing reaps it, and /proc/PID/stat keeps
 * its wait status (field 52, Linux 3.5 and later). A child already gone reads as ended, how unknown.
 */
export function endingOf(pid: number): Ending {
  let text: string
  try {
    text = readFileSync(`/proc/${pid}/stat`, 'utf8')
  } catch {
    return { code: null, signal: null }
  }
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ')
  if (fields[0] !== 'Z') return 'running'
  const status = Number(fields[49])
  if (!Number.isInteger(status)) return { code: null, signal: null }
  const signal = Object.entries(constants.signals).find(([, n]) => n === (status & 0x7f))?.[0] ?? null
  return status & 0x7f ? { code: null, signal } : { code: (status >> 8) & 0xff, signal: null }
}

export function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal)
  } catch {
    // Already gone.
  }
}

/** A started child's PID; undefined when it could not start (its `error` event, which needs the loop, goes unheard). */
export function pidOf(child: ChildProcess): number | undefined {
  child.on('error', () => {})
  return child.pid
}

/**
 * The canary: a node in this process group with no handler, so the group's next SIGINT or SIGTERM kills it. Its stdin is
 * a pipe from us: should we be killed outright, its end ends the canary too.
 */
export function listenToGroup(): RepeatListener {
  const start = () =>
    pidOf(spawn(process.execPath, ['-e', 'process.stdin.resume()'], { stdio: ['pipe', 'ignore', 'ignore'] }))
  let canary = start()
  return {
    heard() {
      if (canary === undefined) return null
      const ending = endingOf(canary)
      if (ending === 'running') return null
      canary = start()
      return ending.signal === 'SIGINT' || ending.signal === 'SIGTERM' ? ending.signal : null
    },
    end() {
      if (canary !== undefined) kill(canary, 'SIGKILL')
    },
  }
}
