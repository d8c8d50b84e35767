// The other revision's checkout for `npm run bench -- --against REV` (benchmarks/support/against/prepare.ts and
// checkout.ts): a real git worktree of REV with its install run, reused while whole, made again when not.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import {
  AGAINST_ENV,
  describeCheckout,
  importFrom,
  otherCheckout,
  READY_FILE,
} from '../../../benchmarks/support/against/checkout.ts'
import { CACHE_ENV, defaultCacheRoot, prepareCheckout } from '../../../benchmarks/support/against/prepare.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { twoCommits } from './support/two-commits.ts'

/** An install that leaves a mark of each time it ran. */
const countingInstall = ['sh', '-c', 'echo ran >> installs.txt']

describe('prepareCheckout', () => {
  test("REV's files in a worktree of its own, its install run there, the ready file last; the bench loads REV's code", async () => {
    const { repo, first } = twoCommits()
    const cacheRoot = tempDirUntilFileEnd('against-cache-')
    const other = await prepareCheckout({ repo, revision: 'HEAD~1', cacheRoot, install: countingInstall })
    expect(other).toEqual({ root: join(cacheRoot, 'against', first), commit: first, revision: 'HEAD~1' })
    expect(readFileSync(join(other.root, 'installs.txt'), 'utf8')).toBe('ran\n')
    expect(JSON.parse(readFileSync(join(other.root, READY_FILE), 'utf8'))).toEqual({
      commit: first,
      revision: 'HEAD~1',
      node: process.version,
    })
    expect(readFileSync(join(repo, 'value.ts'), 'utf8')).toBe('export const value = 2\n')
    const loaded = await importFrom<{ value: number }>(other.root, 'value.ts')
    expect(loaded.value).toBe(1)
    expect(otherCheckout({ [AGAINST_ENV]: other.root })).toEqual({
      root: other.root,
      commit: first,
      revision: 'HEAD~1',
    })
    expect(describeCheckout(other)).toBe(`${first.slice(0, 10)} (HEAD~1)`)
  })

  test('a whole checkout is reused; one whose setup was cut short is made again', async () => {
    const { repo } = twoCommits()
    const cacheRoot = tempDirUntilFileEnd('against-cache-')
    const made = await prepareCheckout({ repo, revision: 'HEAD~1', cacheRoot, install: countingInstall })
    const again = await prepareCheckout({ repo, revision: made.commit, cacheRoot, install: countingInstall })
    expect(readFileSync(join(made.root, 'installs.txt'), 'utf8')).toBe('ran\n')
    // Reused under the name this run gave it, which the benches print.
    expect(again).toEqual({ ...made, revision: made.commit })
    expect(otherCheckout({ [AGAINST_ENV]: made.root })?.revision).toBe(made.commit)
    rmSync(join(made.root, READY_FILE))
    await prepareCheckout({ repo, revision: 'HEAD~1', cacheRoot, install: countingInstall })
    // Made again from scratch: the old install's mark went with the old directory.
    expect(readFileSync(join(made.root, 'installs.txt'), 'utf8')).toBe('ran\n')
    expect(existsSync(join(made.root, READY_FILE))).toBe(true)
  })

  test('an unknown revision, or an install that fails, is named; a failed install leaves no ready file', async () => {
    const { repo, first } = twoCommits()
    const cacheRoot = tempDirUntilFileEnd('against-cache-')
    await expect(prepareCheckout({ repo, revision: 'no-such-branch', cacheRoot })).rejects.toThrow(
      `--against no-such-branch: not a commit of the repository at ${repo}`,
    )
    await expect(
      prepareCheckout({ repo, revision: first, cacheRoot, install: ['sh', '-c', 'exit 3'] }),
    ).rejects.toThrow(`--against ${first}: 'sh -c exit 3' in ${join(cacheRoot, 'against', first)} exited 3`)
    expect(existsSync(join(cacheRoot, 'against', first, READY_FILE))).toBe(false)
    expect(() => otherCheckout({ [AGAINST_ENV]: join(cacheRoot, 'against', first) })).toThrow(
      `${AGAINST_ENV}=${join(cacheRoot, 'against', first)}: no prepared checkout there (${READY_FILE} missing)`,
    )
  })

  test('npm ci runs for real in the new checkout (a package with one local dependency, offline)', async () => {
    const { repo } = twoCommits()
    mkdirSync(join(repo, 'dep'))
    writeFileSync(join(repo, 'dep', 'package.json'), JSON.stringify({ name: 'dep', version: '1.0.0' }))
    const manifest = { name: 'p', version: '1.0.0', private: true, dependencies: { dep: 'file:dep' } }
    writeFileSync(join(repo, 'package.json'), JSON.stringify(manifest))
    execFileSync('npm', ['install', '--package-lock-only', '--offline', '--no-audit', '--no-fund'], { cwd: repo })
    execFileSync('git', ['-C', repo, 'add', '.'])
    execFileSync('git', ['-C', repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-qm', 'package'])
    const other = await prepareCheckout({ repo, revision: 'HEAD', cacheRoot: tempDirUntilFileEnd('against-cache-') })
    expect(existsSync(join(other.root, 'node_modules', 'dep', 'package.json'))).toBe(true)
  }, 60_000)

  test('the cache: VIRNUCPRO_BENCH_CACHE, else XDG_CACHE_HOME, else ~/.cache', () => {
    expect(defaultCacheRoot({ [CACHE_ENV]: '/c' })).toBe('/c')
    expect(defaultCacheRoot({ XDG_CACHE_HOME: '/x' })).toBe('/x/virnucpro-bench')
    expect(defaultCacheRoot({})).toMatch(/\/\.cache\/virnucpro-bench$/)
  })
})
