import { mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { execa } from 'execa'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { readGitState } from '../../src/results/git-state.ts'

let dir: string
const git = (...args: string[]) => execa('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', ...args], { cwd: dir })

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'git-state-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

test('null outside a git checkout', async () => {
  expect(await readGitState(dir)).toBeNull()
})

test('clean after a commit, dirty after an edit or a new file', async () => {
  await git('init', '-q')
  await writeFile(join(dir, 'a.txt'), 'a')
  await git('add', 'a.txt')
  await git('commit', '-qm', 'first')
  const clean = await readGitState(dir)
  expect(clean?.commit).toMatch(/^[0-9a-f]{40}$/)
  expect(clean?.dirty).toBe(false)
  await writeFile(join(dir, 'b.txt'), 'b')
  expect((await readGitState(dir))?.dirty).toBe(true)
})
