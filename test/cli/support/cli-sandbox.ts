// The real CLI (src/cli.ts) as its own process in a temp directory of its own, for the tables of issue #25: files and
// directories made there readable by every user (read-only rows run as nobody under root: test/support/other-user.ts),
// and a way to tell whether a path changed.
import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { execa } from 'execa'
import { asOtherUser, CLI } from '../../support/other-user.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'

export { CLI }

export interface Ran {
  exitCode: number | undefined
  stdout: string
  stderr: string
}

export interface CliOptions {
  cwd?: string
  env?: Record<string, string>
  /** Run as nobody when this process is root: read-only places stop only a user that is not root. */
  asNobody?: boolean
  /** Killed after this long (default 60 s): a test of something that must not hang sets less than its own timeout. */
  timeoutMs?: number
}

// No Slurm configuration: cluster rows read the same whether or not this machine has a cluster.
const { SLURM_CONF: _, ...withoutSlurm } = process.env

/** What a path holds: file bytes hashed, a directory's entries, or absent. */
export function snapshot(path: string): string {
  const info = statSync(path, { throwIfNoEntry: false })
  if (!info) return 'absent'
  if (info.isDirectory()) return `dir:${readdirSync(path).sort().join(',')}`
  return `file:${createHash('sha256').update(readFileSync(path)).digest('hex')}`
}

/** A sandbox removed when the test file ends: paths in it, and the CLI run with it as the working directory. */
export function cliSandbox(prefix: string) {
  const root = tempDirUntilFileEnd(prefix)
  chmodSync(root, 0o755)
  const at = (...parts: string[]) => join(root, ...parts)
  return {
    root,
    at,
    dir(...parts: string[]): string {
      mkdirSync(at(...parts), { recursive: true, mode: 0o755 })
      return at(...parts)
    },
    file(name: string, content: string | Uint8Array): string {
      writeFileSync(at(name), content, { mode: 0o644 })
      return at(name)
    },
    cli(args: readonly string[], options: CliOptions = {}): Promise<Ran> {
      // This Node, not the first `node` on PATH: an unprivileged user may not reach the one PATH names first.
      return execa(process.execPath, [CLI, ...args], {
        reject: false,
        cwd: options.cwd ?? root,
        env: { ...withoutSlurm, ...options.env },
        extendEnv: false,
        timeout: options.timeoutMs ?? 60_000,
        ...(options.asNobody ? asOtherUser : {}),
      }) as Promise<Ran>
    },
  }
}
