/**
 * A command run as a child of bash, with the CPU time it and its own children used (user + system, 1 ms grain) read
 * from bash's `times` builtin: Node reports no RUSAGE_CHILDREN, and a ratio of child processes' CPU times moved far
 * less than one of their wall times on a busy machine. `times` writes to fd 3, so the command's stdout and stderr
 * stay its own.
 */
import { spawnSync } from 'node:child_process'

export interface ChildRun {
  stdout: string
  /** CPU time of the command and its descendants, ms. */
  childCpuMs: number
}

/** `0m1.234s` -> 1234 (ms). */
function timesMs(text: string): number {
  const m = /^(\d+)m(\d+(?:\.\d+)?)s$/.exec(text)
  if (!m) throw new Error(`bash times: unexpected field '${text}'`)
  return (Number(m[1]) * 60 + Number(m[2])) * 1000
}

/**
 * Runs `file args...`; returns its stdout and its CPU time.
 * @throws Error naming the command when it exits non-zero or bash's `times` line cannot be read
 */
export function runWithChildCpu(file: string, args: readonly string[]): ChildRun {
  const result = spawnSync('bash', ['-c', '"$@"; status=$?; times >&3; exit $status', 'bash', file, ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 2 ** 20,
    stdio: ['ignore', 'pipe', 'inherit', 'pipe'],
  })
  const command = [file, ...args].join(' ')
  if (result.error) throw new Error(`${command}: ${result.error.message}`, { cause: result.error })
  if (result.status !== 0) throw new Error(`${command} exited ${result.status}`)
  // `times` prints the shell's user and system time, then its children's: the second line is the command's.
  const children = String(result.output[3] ?? '')
    .trim()
    .split('\n')[1]
    ?.split(/\s+/)
  if (children?.length !== 2) throw new Error(`${command}: no children's line from bash times`)
  return { stdout: result.stdout, childCpuMs: timesMs(children[0]!) + timesMs(children[1]!) }
}
