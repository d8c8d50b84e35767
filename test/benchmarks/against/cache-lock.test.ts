import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from 'node:fs'
import os from 'node:os'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { READY_FILE } from '../../../benchmarks/support/against/checkout.ts'
import { prepareCheckout } from '../../../benchmarks/support/against/prepare.ts'
import { tempDirUntilFileEnd } from '../../support/temp-dir.ts'
import { twoCommits } from './support/two-commits.ts'

const PREPARE_URL = pathToFileURL(resolve(import.meta.dirname, '../../../benchmarks/support/against/prepare.ts')).href

/** `npm run bench -- --against HEAD~1`'s preparation in a process of its own; its last stdout line is the checkout. */
function prepareInProcess(repo: string, cacheRoot: string, install: readonly string[], detached = false) {
  const script = [
    'const { prepareCheckout } = await import(process.env.PREPARE_URL)',
    'const options = JSON.parse(process.env.PREPARE_OPTIONS)',
    'const other = await prepareCheckout({ ...options, log: (line) => console.log(line) })',
    'console.log(JSON.stringify(other))',
  ].join('\n')
  return execa(process.execPath, ['--input-type=module', '-e', script], {
    reject: false,
    detached,
    stdin: 'ignore',
    env: { PREPARE_URL, PREPARE_OPTIONS: JSON.stringify({ repo, revision: 'HEAD~1', cacheRoot, install }) },
  })
}

/** An install slow enough that two preparations overlap, leaving a mark of each time it ran. */
const slowCountingInstall = ['sh', '-c', 'sleep 1; echo ran >> installs.txt']
const countingInstall = ['sh', '-c', 'echo ran >> installs.txt']

async function waitForFile(path: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!existsSync(path)) {
    if (Date.now() > deadline) throw new Error(`${path} did not appear within ${timeoutMs} ms`)
    await new Promise((done) => setTimeout(done, 50))
  }
}

/** A lock as its holder wrote it, its mtime (the holder's heartbeat) `ageMs` ago. */
function leaveLock(entry: string, holder: { host: string; pid: number; since: string }, ageMs: number): string {
  mkdirSync(join(entry, '..'), { recursive: true })
  const lock = `${entry}.lock`
  writeFileSync(lock, JSON.stringify({ token: 'left-behind', ...holder }))
  const beatAt = new Date(Date.now() - ageMs)
  utimesSync(lock, beatAt, beatAt)
  return lock
}

describe('the cache of other revisions is locked while a checkout is prepared', () => {
  test('two preparations at once on an empty cache both succeed, the checkout prepared once', {
    timeout: 60_000,
  }, async () => {
    const { repo, first } = twoCommits()
    const cacheRoot = tempDirUntilFileEnd('against-lock-cache-')
    const runs = await Promise.all([
      prepareInProcess(repo, cacheRoot, slowCountingInstall),
      prepareInProcess(repo, cacheRoot, slowCountingInstall),
    ])
    const root = join(cacheRoot, 'against', first)
    for (const run of runs) {
      expect(run.exitCode, `${run.stdout}\n${run.stderr}`).toBe(0)
      expect(JSON.parse(run.stdout.split('\n').at(-1)!)).toEqual({ root, commit: first, revision: 'HEAD~1' })
    }
    expect(readFileSync(join(root, 'installs.txt'), 'utf8')).toBe('ran\n')
    // One prepared it; the other waited for it, saying for whom, and then reused it.
    const output = runs.map((run) => run.stdout).join('\n')
    expect(output).toMatch(
      new RegExp(`waiting for pid \\d+ on host ${os.hostname()} \\(since [^)]+\\) to finish preparing ${root}`),
    )
    expect(output).toContain(`bench --against HEAD~1: reusing ${root}`)
    expect(existsSync(`${root}.lock`)).toBe(false)
  })

  test('a holder killed mid-preparation (its pid gone on this host) is taken over; its half checkout is made again', {
    timeout: 60_000,
  }, async () => {
    const { repo, first } = twoCommits()
    const cacheRoot = tempDirUntilFileEnd('against-lock-cache-')
    const root = join(cacheRoot, 'against', first)
    // Its own process group, so that SIGKILL takes its install's `sleep` with it, as a killed terminal would.
    const holder = prepareInProcess(repo, cacheRoot, ['sh', '-c', 'echo half > half.txt; sleep 60'], true)
    await waitForFile(join(root, 'half.txt'), 30_000)
    process.kill(-holder.pid!, 'SIGKILL')
    await holder
    const lines: string[] = []
    const other = await prepareCheckout({
      repo,
      revision: 'HEAD~1',
      cacheRoot,
      install: countingInstall,
      log: (line) => lines.push(line),
    })
    expect(other.root).toBe(root)
    expect(lines.filter((line) => line.includes('took over'))).toEqual([
      expect.stringMatching(
        new RegExp(
          `^bench --against HEAD~1: took over the lock of ${root} from pid ${holder.pid} on host ${os.hostname()} \\(since [^)]+\\): pid ${holder.pid} is gone$`,
        ),
      ),
    ])
    expect(existsSync(join(root, 'half.txt'))).toBe(false)
    expect(readFileSync(join(root, 'installs.txt'), 'utf8')).toBe('ran\n')
    expect(existsSync(join(root, READY_FILE))).toBe(true)
    expect(existsSync(`${root}.lock`)).toBe(false)
  })

  test('a lock left on another host, its heartbeat older than the staleness, is taken over', async () => {
    const { repo, first } = twoCommits()
    const cacheRoot = tempDirUntilFileEnd('against-lock-cache-')
    const root = join(cacheRoot, 'against', first)
    leaveLock(root, { host: 'another-node', pid: 4242, since: '2026-01-02T03:04:05.000Z' }, 10 * 60_000)
    const lines: string[] = []
    await prepareCheckout({
      repo,
      revision: 'HEAD~1',
      cacheRoot,
      install: countingInstall,
      staleMs: 60_000,
      log: (line) => lines.push(line),
    })
    expect(lines).toContain(
      `bench --against HEAD~1: took over the lock of ${root} from pid 4242 on host another-node (since 2026-01-02T03:04:05.000Z): no heartbeat for 600 s (stale after 60 s)`,
    )
    expect(readFileSync(join(root, 'installs.txt'), 'utf8')).toBe('ran\n')
  })

  test('a live holder past the wait is refused in one line naming it (pid, host, since) and the cache path', async () => {
    const { repo, first } = twoCommits()
    const cacheRoot = tempDirUntilFileEnd('against-lock-cache-')
    const root = join(cacheRoot, 'against', first)
    // This very process: alive, on this host, and no preparation of it finishes.
    const lock = leaveLock(root, { host: os.hostname(), pid: process.pid, since: '2026-01-02T03:04:05.000Z' }, 0)
    const refused = prepareCheckout({ repo, revision: 'HEAD~1', cacheRoot, install: countingInstall, waitMs: 300 })
    await expect(refused).rejects.toThrow(
      `--against HEAD~1: ${root} is being prepared by pid ${process.pid} on host ${os.hostname()} since 2026-01-02T03:04:05.000Z; gave up after waiting 0.3 s: let it finish, or if that process is gone remove ${lock}`,
    )
    await expect(refused).rejects.toThrow(/^[^\n]*$/)
    expect(existsSync(lock)).toBe(true)
    expect(existsSync(join(root, READY_FILE))).toBe(false)
  })
})
