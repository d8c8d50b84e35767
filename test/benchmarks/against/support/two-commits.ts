// A small real git repository for the tests of `--against`'s checkout (prepare.test.ts, cache-lock.test.ts).
import { execFileSync } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { tempDirUntilFileEnd } from '../../../support/temp-dir.ts'

/** A repository with two commits of `value.ts`: the first exports 1, the second 2. Returns it and the first commit. */
export function twoCommits(): { repo: string; first: string } {
  const repo = tempDirUntilFileEnd('against-repo-')
  const git = (...args: string[]) =>
    execFileSync('git', ['-C', repo, ...args], {
      encoding: 'utf8',
      env: {
        ...process.env,
        GIT_AUTHOR_NAME: 't',
        GIT_AUTHOR_EMAIL: 't@t',
        GIT_COMMITTER_NAME: 't',
        GIT_COMMITTER_EMAIL: 't@t',
      },
    }).trim()
  git('init', '-q')
  writeFileSync(join(repo, 'value.ts'), 'export const value = 1\n')
  git('add', '.')
  git('commit', '-qm', 'one')
  const first = git('rev-parse', 'HEAD')
  writeFileSync(join(repo, 'value.ts'), 'export const value = 2\n')
  git('commit', '-qam', 'two')
  return { repo, first }
}
