/**
 * The other revision of `npm run bench -- --against REV`: a git worktree of REV (detached) in the cache directory,
 * with its own `npm ci` (its dependencies and its NVML addon), reused by later runs against the same commit on the same
 * Node. The ready file (checkout.ts) is written last, so a checkout whose setup was interrupted is never used: the
 * next run removes it and starts again.
 */
import { readFile, rm, stat } from 'node:fs/promises'
import os from 'node:os'
import { join, resolve } from 'node:path'
import { execa } from 'execa'
import { writeFileAtomic } from '../../../src/platform/atomic-write.ts'
import { makeDirs } from '../../../src/platform/make-dirs.ts'
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
 * exists.
 * @throws Error naming the revision when it is no commit of `repo`, or naming the command and directory that failed
 */
export async function prepareCheckout(options: PrepareOptions): Promise<OtherCheckout> {
  const log = options.log ?? (() => {})
  const git = (args: string[]) => execa('git', ['-C', options.repo, ...args], { stdin: 'ignore' })
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
  const ready = await readReady(root)
  if (ready?.commit === commit && ready.node === process.version) {
    log(`bench --against ${options.revision}: reusing ${root}`)
    // The benches name the revision as this run asked for it (`main`, then `HEAD~2` for the same commit).
    if (ready.revision !== options.revision) await writeReady(root, { ...ready, revision: options.revision })
    return { root, commit, revision: options.revision }
  }
  if (await stat(root).catch(() => null)) {
    log(
      `bench --against ${options.revision}: ${root} is not a whole checkout for Node ${process.version}; making it again`,
    )
    await git(['worktree', 'remove', '--force', root]).catch(() => {})
    await rm(root, { recursive: true, force: true })
  }
  await git(['worktree', 'prune'])
  await makeDirs(join(options.cacheRoot, 'against'))
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
