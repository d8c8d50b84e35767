import { spawnSync } from 'node:child_process'

/**
 * Finds a Python interpreter that can import torch, for the bundled reference pipeline (reference-pipeline/refpipe).
 * Search order: env REFPIPE_PYTHON, then `python3` on PATH, then `/usr/bin/python3` (Debian's python3-torch lives
 * there while PATH may hold a pyenv Python without torch). Each candidate is probed once per process; the result is
 * cached.
 */

export type PythonProbe =
  | { state: 'found'; executable: string; torchVersion: string }
  | { state: 'missing'; reason: string }

/** Seconds a probe may take: importing torch can take a few seconds on a cold disk. */
const PROBE_TIMEOUT_MS = 60_000

let cached: PythonProbe | undefined

/** Candidate interpreters in search order, without duplicates. */
export function pythonCandidates(env: NodeJS.ProcessEnv = process.env): string[] {
  const list = [env.REFPIPE_PYTHON, 'python3', '/usr/bin/python3'].filter((c): c is string => Boolean(c?.trim()))
  return [...new Set(list)]
}

/** Runs `import torch` in one interpreter; the torch version, or why it failed. */
export function probePython(executable: string): PythonProbe {
  const result = spawnSync(executable, ['-c', 'import torch, numpy; print(torch.__version__)'], {
    encoding: 'utf8',
    timeout: PROBE_TIMEOUT_MS,
  })
  if (result.error) return { state: 'missing', reason: `${executable}: ${result.error.message}` }
  if (result.status !== 0) {
    const lastLine = result.stderr.trim().split('\n').at(-1) ?? `exit status ${result.status}`
    return { state: 'missing', reason: `${executable}: ${lastLine}` }
  }
  return { state: 'found', executable, torchVersion: result.stdout.trim() }
}

/** The first candidate that imports torch and numpy (cached), or every candidate's reason for failing. */
export function findTorchPython(env: NodeJS.ProcessEnv = process.env): PythonProbe {
  if (cached) return cached
  const reasons: string[] = []
  for (const candidate of pythonCandidates(env)) {
    const probe = probePython(candidate)
    if (probe.state === 'found') {
      cached = probe
      return probe
    }
    reasons.push(probe.reason)
  }
  cached = { state: 'missing', reason: `no Python with torch and numpy found (${reasons.join('; ')})` }
  return cached
}
