/**
 * The two checkouts a bench can load its subject from: this one, and under `npm run bench -- --against REV` the other
 * revision's (prepared by prepare.ts, named to the bench processes by VIRNUCPRO_BENCH_AGAINST). A bench builds its
 * subject from a checkout root, importing the code under test from that root's `src/`, so the same bench runs both
 * revisions' code side by side in one process, in interleaved pairs.
 */
import { existsSync, readFileSync, statSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

export const AGAINST_ENV = 'VIRNUCPRO_BENCH_AGAINST'
/** Written last by prepare.ts into a prepared checkout: its presence says the checkout and its npm ci are whole. */
export const READY_FILE = '.virnucpro-bench-against.json'
export const THIS_CHECKOUT = resolve(import.meta.dirname, '../../..')

export interface OtherCheckout {
  root: string
  /** The commit it holds (from its ready file). */
  commit: string
  /** What the user asked for (`main`, `HEAD~3`, a hash). */
  revision: string
}

/**
 * The other revision's checkout when this run compares against one, else null.
 * @throws Error naming the variable and the directory when it names no prepared checkout
 */
export function otherCheckout(env: NodeJS.ProcessEnv = process.env): OtherCheckout | null {
  const dir = env[AGAINST_ENV]?.trim()
  if (!dir) return null
  const root = resolve(dir)
  const ready = join(root, READY_FILE)
  if (!statSync(ready, { throwIfNoEntry: false })?.isFile())
    throw new Error(
      `${AGAINST_ENV}=${dir}: no prepared checkout there (${READY_FILE} missing); run npm run bench -- --against REV`,
    )
  const { commit, revision } = JSON.parse(readFileSync(ready, 'utf8')) as { commit: string; revision: string }
  return { root, commit, revision }
}

/** `abc1234 (main)`: how the other revision is named in messages. */
export function describeCheckout(other: OtherCheckout): string {
  const short = other.commit.slice(0, 10)
  return other.revision === other.commit || other.revision === short ? short : `${short} (${other.revision})`
}

/**
 * Folders renamed since earlier revisions (issue 38: code named for what it does), newest name first: a revision from
 * before the rename keeps the module under its former folder, and `--against` such a revision still finds it.
 */
const FORMER_FOLDERS: readonly (readonly [string, string])[] = [
  ['src/input/', 'src/fixtures/'],
  ['src/pipeline/', 'src/target/'],
]

/** The module's path in `root`: as given, or under its folder's former name where only that exists. */
export function pathIn(root: string, relativePath: string): string {
  if (existsSync(join(root, relativePath))) return relativePath
  const former = FORMER_FOLDERS.find(([now]) => relativePath.startsWith(now))
  const old = former ? former[1] + relativePath.slice(former[0].length) : null
  return old && existsSync(join(root, old)) ? old : relativePath
}

/**
 * Imports a module of a checkout by its path inside it (`src/measure/rng.ts`; a folder renamed since is found under
 * its former name); `T` is the module's type as this checkout declares it (`typeof import('../src/measure/rng.ts')`):
 * the other revision must offer the same exports.
 * @throws Error naming the checkout and the module when it cannot be loaded
 */
export async function importFrom<T>(root: string, relativePath: string): Promise<T> {
  const path = pathIn(root, relativePath)
  try {
    return (await import(pathToFileURL(join(root, path)).href)) as T
  } catch (error) {
    throw new Error(`cannot load ${path} from ${root}: ${(error as Error).message}`, { cause: error })
  }
}
