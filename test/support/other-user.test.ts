// The check every test that runs the CLI as another user makes first: can nobody run this Node and the script? A
// checkout in a private directory (mode 700, as `mktemp -d` makes it) is out of nobody's reach.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { beforeEach, describe, expect, test } from 'vitest'
import { nobodyCannotRun } from './other-user.ts'
import { tempDirUntilFileEnd } from './temp-dir.ts'

const asRoot = process.getuid?.() === 0
const root = tempDirUntilFileEnd('other-user-')
chmodSync(root, 0o755)

/** A script that exits 0, in a directory of this mode. */
function scriptIn(name: string, mode: number): string {
  const dir = join(root, name)
  mkdirSync(dir)
  chmodSync(dir, mode)
  writeFileSync(join(dir, 'ok.js'), 'process.exit(0)\n', { mode: 0o644 })
  return join(dir, 'ok.js')
}

describe('nobody runs the script where every user can reach it, and is named where not', () => {
  beforeEach((context) => {
    if (!asRoot) context.skip('only root can run a process as nobody (as another user, these tests run as that user)')
  })

  test('a checkout every user can read', async () => {
    expect(await nobodyCannotRun(scriptIn('public', 0o755))).toBeNull()
  })

  test('a checkout in a private directory (mode 700): the problem names nobody, Node, the script and the error', async () => {
    const script = scriptIn('private', 0o700)
    expect(await nobodyCannotRun(script)).toBe(
      `nobody (uid 65534) cannot run ${process.execPath} ${script} here (Error: Cannot find module '${script}')`,
    )
  })

  test('a script that fails as nobody is named with its exit code', async () => {
    const script = join(root, 'fails.js')
    writeFileSync(join(root, 'fails.js'), 'process.exit(4)\n', { mode: 0o644 })
    expect(await nobodyCannotRun(script)).toBe(
      `nobody (uid 65534) cannot run ${process.execPath} ${script} here (exit 4)`,
    )
  })
})
