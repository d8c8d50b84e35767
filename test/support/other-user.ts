// Tests that run the CLI as another user. As root (CI containers, this machine), a read-only place stops only a user
// that is not root, so those tests run the CLI as nobody; as any other user, chmod is enough and they run as that
// user. nobody must first reach this Node and the checkout: a checkout in a private directory (root's home, or
// `mktemp -d`, mode 700) is out of its reach, and the CLI would fail to load instead of refusing the place. Every such
// test checks through `otherUserProblem` and skips with the reason where nobody cannot (fails where
// VIRNUCPRO_BENCH_REQUIRE_TOOLS names other-user).
import { join } from 'node:path'
import { execa } from 'execa'

export const CLI = join(import.meta.dirname, '../../src/cli.ts')

/** nobody on Linux. */
export const NOBODY = { uid: 65534, gid: 65534 } as const

const asRoot = process.getuid?.() === 0

/**
 * Options that run a child process (execa, spawn) as nobody when this process is root, and as this user otherwise.
 * Node drops the supplementary groups with the switch, so the child keeps none of root's.
 */
export const asOtherUser: { uid?: number; gid?: number } = asRoot ? { ...NOBODY } : {}

let probed: Promise<string | null> | undefined

/**
 * Why the CLI cannot run as nobody here, or null when it can or when this process is not root. Runs `node
 * src/cli.ts --version` as nobody, this Node and this checkout (its node_modules included) as the tests would; probed
 * once per file.
 */
export function otherUserProblem(): Promise<string | null> {
  probed ??= probe()
  return probed
}

async function probe(): Promise<string | null> {
  return asRoot ? nobodyCannotRun(CLI, ['--version']) : null
}

/** Why nobody cannot run `node script ...args` to exit 0 here (this Node), or null when it can. Needs root. */
export async function nobodyCannotRun(script: string, args: readonly string[] = []): Promise<string | null> {
  const ran = await execa(process.execPath, [script, ...args], { reject: false, timeout: 30_000, ...NOBODY })
  if (ran.exitCode === 0) return null
  const said =
    `${ran.stderr}\n${ran.shortMessage ?? ''}`.split('\n').find((l) => /Error|EACCES|denied|ENOENT/.test(l)) ??
    `exit ${ran.exitCode}`
  return `nobody (uid ${NOBODY.uid}) cannot run ${process.execPath} ${script} here (${said.trim()})`
}
