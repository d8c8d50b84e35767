import { execa } from 'execa'

export interface GitState {
  commit: string
  /** Uncommitted changes to tracked files, or untracked files that are not ignored. */
  dirty: boolean
}

/** The checkout's commit and dirty flag; null when `directory` is not a git checkout or git is missing (never throws). */
export async function readGitState(directory: string): Promise<GitState | null> {
  const options = { cwd: directory, reject: false, stdin: 'ignore' } as const
  const head = await execa('git', ['rev-parse', 'HEAD'], options).catch(() => null)
  if (head?.exitCode !== 0) return null
  const status = await execa('git', ['status', '--porcelain', '--untracked-files=normal'], options)
  return { commit: head.stdout.trim(), dirty: status.exitCode !== 0 || status.stdout.trim() !== '' }
}
