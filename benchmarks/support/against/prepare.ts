/**
 * The other revision of `npm run bench -- --against REV`: a git worktree of REV (detached) in the cache directory,
 * with its own `npm ci` (its dependencies and its NVML addon), reused by later runs against the same commit on the same
 * Node. The ready file (checkout.ts) is written last, so a checkout whose setup was interrupted is never used: the
 * next run removes it and starts again. Runs at once for one commit take turns under its lock (cache-lock.ts): the
 * first prepares, the others wait and reuse its checkout, so none removes or installs into a worktree being made.
 */
import { readFile, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { writeFileAtomic } from '../../../src/platform/atomic-write.ts'
import { makeDirs } from '../../../src/platform/make-dirs.ts'
import { DEFAULT_STALE_MS, DEFAULT_WAIT_MS, lockCacheEntry } from './cache-lock.ts'
import { type OtherCheckout, READY_FILE } from './checkout.ts'

export const CACHE_ENV = 'VIRNUCPRO_BENCH_CACHE'

export interface PrepareOptions {
  /** This checkout (the repository REV is looked up in). */
  repo: string
  revision: string
  /** Where prepared checkouts live: `<cacheRoot>/against/<commit>`. */
  cacheRoot: string
  /** The install command run in the new checkout. */
  install?: readonly string[]
  log?: (line: string) => void
  /** How long to wait for another invocation preparing the same commit; default DEFAULT_WAIT_MS (20 min). */
  waitMs?: number
  /** Another invocation's lock whose heartbeat is older than this is taken over; default DEFAULT_STALE_MS (60 s). */
  staleMs?: number
}

/** VIRNUCPRO_BENCH_CACHE (as .ci/run uses it), else `$XDG_CACHE_HOME/virnucpro-bench` (`~/.cache/...`). */
export function defaultCacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  const explicit = env[CACHE_ENV]?.trim()
  if (explicit) return resolve(explicit)
  return join(env.XDG_CACHE_HOME?.trim() || join(os.homedir(), '.cache'), 'virnucpro-bench')
}

interface ReadyFile {
  commit: string
  revision: string
  node: string
}

async function readReady(dir: string): Promise<ReadyFile | null> {
  try {
    return JSON.parse(await readFile(join(dir, READY_FILE), 'utf8')) as ReadyFile
  } catch {
    return null
  }
}

/**
 * The prepared checkout of `revision`: made (worktree + install) unless a whole one for its commit and this Node
 * exists. One invocation at a time prepares an entry (cache-lock.ts); another waits for it and reuses its checkout.
 * @throws Error naming the revision when it is no commit of `repo`, or naming the command and directory that failed,
 * or naming the invocation that holds the entry past `waitMs` (pid, host, since) and the entry's path
 */
export async function prepareCheckout(options: PrepareOptions): Promise<OtherCheckout> {
  const log = options.log ?? (() => {})
  const found = await execa(
    'git',
    ['-C', options.repo, 'rev-parse', '--verify', '--quiet', `${options.revision}^{commit}`],
    {
      reject: false,
      stdin: 'ignore',
    },
  )
  if (found.exitCode !== 0)
    throw new Error(`--against ${options.revision}: not a commit of the repository at ${options.repo}`)
  const commit = found.stdout.trim()
  const root = join(options.cacheRoot, 'against', commit)
  // Without the lock: the ready file is written last (and atomically), so one read here names a whole checkout, and
  // runs that only reuse never wait on one that prepares another commit's.
  const reused = await reuseIfWhole(root, commit, options.revision, log)
  if (reused) return reused
  await makeDirs(join(options.cacheRoot, 'against'))
  const lock = await lockCacheEntry(root, {
    waitMs: options.waitMs ?? DEFAULT_WAIT_MS,
    staleMs: options.staleMs ?? DEFAULT_STALE_MS,
    log: (line) => log(`bench --against ${options.revision}: ${line}`),
  }).catch((error: unknown) => {
    throw new Error(`--against ${options.revision}: ${(error as Error).message}`, { cause: error })
  })
  try {
    // The run this one waited for has most likely just made it.
    return (await reuseIfWhole(root, commit, options.revision, log)) ?? (await makeCheckout(root, commit, options, log))
  } finally {
    await lock.release()
  }
}

async function reuseIfWhole(
  root: string,
  commit: string,
  revision: string,
  log: (line: string) => void,
): Promise<OtherCheckout | null> {
  const ready = await readReady(root)
  if (ready?.commit !== commit || ready.node !== process.version) return null
  log(`bench --against ${revision}: reusing ${root}`)
  // The benches name the revision as this run asked for it (`main`, then `HEAD~2` for the same commit).
  if (ready.revision !== revision) await writeReady(root, { ...ready, revision })
  return { root, commit, revision }
}

/** Worktree and install, the ready file last; run under the entry's lock. */
async function makeCheckout(
  root: string,
  commit: string,
  options: PrepareOptions,
  log: (line: string) => void,
): Promise<OtherCheckout> {
  const git = (args: string[]) => execa('git', ['-C', options.repo, ...args], { stdin: 'ignore' })
  if (await stat(root).catch(() => null)) {
    log(
      `bench --against ${options.revision}: ${root} is not a whole checkout for Node ${process.version}; making it again`,
    )
    await git(['worktree', 'remove', '--force', root]).catch(() => {})
    await rm(root, { recursive: true, force: true })
  }
  await git(['worktree', 'prune'])
  log(`bench --against ${options.revision}: git worktree add --detach ${root} ${commit}`)
  await git(['worktree', 'add', '--detach', root, commit])
  const [file, ...args] = options.install ?? ['npm', 'ci', '--no-audit', '--no-fund']
  log(`bench --against ${options.revision}: ${[file, ...args].join(' ')} in ${root}`)
  const installed = await execa(file!, args, {
    cwd: root,
    stdin: 'ignore',
    stdout: 'inherit',
    stderr: 'inherit',
    reject: false,
  })
  if (installed.exitCode !== 0)
    throw new Error(
      `--against ${options.revision}: '${[file, ...args].join(' ')}' in ${root} exited ${installed.exitCode ?? installed.signal}`,
    )
  await writeReady(root, { commit, revision: options.revision, node: process.version })
  return { root, commit, revision: options.revision }
}

function writeReady(root: string, ready: ReadyFile): Promise<void> {
  return writeFileAtomic(join(root, READY_FILE), `${JSON.stringify(ready)}\n`)
}
