import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { writeFileAtomic, writeFileAtomicNew } from '../../src/platform/atomic-write.ts'

let dir: string
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'atomic-'))
})
afterEach(async () => {
  await rm(dir, { recursive: true, force: true })
})

test('writes the content and leaves no temporary file', async () => {
  await writeFileAtomic(join(dir, 'a.json'), '{"x":1}')
  expect(await readFile(join(dir, 'a.json'), 'utf8')).toBe('{"x":1}')
  expect(await readdir(dir)).toEqual(['a.json'])
})

test('replaces an existing file whole', async () => {
  await writeFile(join(dir, 'a.json'), 'old content that is longer')
  await writeFileAtomic(join(dir, 'a.json'), 'new')
  expect(await readFile(join(dir, 'a.json'), 'utf8')).toBe('new')
})

test('fails with the target path named and nothing half-written when the directory is missing', async () => {
  const target = join(dir, 'missing', 'a.json')
  await expect(writeFileAtomic(target, 'x')).rejects.toThrow(target)
  expect(await readdir(dir)).toEqual([])
})

test('writeFileAtomicNew writes a new file and never replaces one, leaving no temporary file either way', async () => {
  const path = join(dir, 'a.json')
  expect(await writeFileAtomicNew(path, 'first')).toBe(true)
  expect(await writeFileAtomicNew(path, 'second')).toBe(false)
  expect(await readFile(path, 'utf8')).toBe('first')
  expect(await readdir(dir)).toEqual(['a.json'])
})

test('writeFileAtomicNew: of concurrent writers to one path, exactly one wins', async () => {
  const path = join(dir, 'a.json')
  const won = await Promise.all(Array.from({ length: 8 }, (_, i) => writeFileAtomicNew(path, `writer ${i}`)))
  expect(won.filter(Boolean)).toHaveLength(1)
  expect(await readFile(path, 'utf8')).toBe(`writer ${won.indexOf(true)}`)
  expect(await readdir(dir)).toEqual(['a.json'])
})
