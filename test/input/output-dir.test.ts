import { mkdir, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { OutputDirError, writeDirectoryAtomically } from '../../src/input/atomic-dir.ts'
import { generateFixture } from '../../src/input/generate.ts'
import { resolveParams } from '../../src/input/presets.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('output-dir-')
let made = 0
const fresh = async (files: Record<string, string> = {}) => {
  const dir = join(root, `d${made++}`)
  await mkdir(dir)
  for (const [name, text] of Object.entries(files)) await writeFile(join(dir, name), text)
  return dir
}
const tiny = (files = 1) => resolveParams('TINY', { files })
const list = async (dir: string) => (await readdir(dir)).sort()

describe('where a fixture may be written', () => {
  test('a new path: created whole; an empty directory: filled; no temporary directory left anywhere', async () => {
    const dir = join(root, `new${made++}`, 'fx')
    await generateFixture(tiny(), dir)
    expect(await list(dir)).toEqual(['manifest.json', 'part-001.fa'])
    const empty = await fresh()
    await generateFixture(tiny(), empty)
    expect(await list(empty)).toEqual(['manifest.json', 'part-001.fa'])
    expect((await readdir(root, { recursive: true })).filter((name) => name.includes('.tmp-'))).toEqual([])
  })

  test("an earlier fixture: only the files its manifest names are replaced or removed; the user's notes stay", async () => {
    const dir = await fresh()
    await generateFixture(tiny(3), dir)
    await writeFile(join(dir, 'NOTES.txt'), 'mine')
    await generateFixture(tiny(1), dir)
    expect(await list(dir)).toEqual(['NOTES.txt', 'manifest.json', 'part-001.fa'])
    expect(await readFile(join(dir, 'NOTES.txt'), 'utf8')).toBe('mine')
  })

  test.for([
    [
      'files and no manifest',
      { 'data.csv': 'a,b' },
      /holds 1 file\(s\) \(data\.csv\) and no fixture manifest\.json; choose an empty or new directory for --out$/,
    ],
    [
      'a manifest that is not ours',
      { 'data.csv': 'a,b', 'manifest.json': '{}' },
      /its manifest\.json is not a virnucpro-bench fixture manifest \(no fixture kind\), so its files may be yours; choose/,
    ],
    [
      'a manifest naming a path outside',
      { 'manifest.json': JSON.stringify({ kind: 'generated', generatorVersion: 1, files: [{ name: '../x' }] }) },
      /\(a file name that is not a plain name in the directory\)/,
    ],
    ['a manifest that is no JSON', { 'manifest.json': '{', 'NOTES.txt': 'x' }, /\(not readable JSON\)/],
  ] as const)('refused, nothing touched: %s', async ([, files, message]) => {
    const dir = await fresh(files)
    const error = await generateFixture(tiny(), dir).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(OutputDirError)
    expect((error as Error).message).toMatch(message)
    expect((error as Error).message.startsWith(`${dir}: `)).toBe(true)
    expect(await list(dir)).toEqual(Object.keys(files).sort())
    for (const [name, text] of Object.entries(files)) expect(await readFile(join(dir, name), 'utf8')).toBe(text)
  })

  test("a user's file where the new fixture would write one is refused before any work", async () => {
    const dir = await fresh()
    await generateFixture(tiny(1), dir)
    await writeFile(join(dir, 'part-002.fa'), 'mine')
    await expect(generateFixture(tiny(2), dir)).rejects.toThrow(
      `${dir}: part-002.fa is there and is no file of an earlier fixture: it would be overwritten; move it away, or choose`,
    )
    expect(await readFile(join(dir, 'part-002.fa'), 'utf8')).toBe('mine')
  })

  test('a file at the path is refused', async () => {
    const file = join(root, `file${made++}`)
    await writeFile(file, 'x')
    await expect(generateFixture(tiny(), file)).rejects.toThrow(`${file}: is a file, not a directory; choose`)
  })
})

describe('writeDirectoryAtomically', () => {
  test('a failing or aborted write leaves the directory as it was and no temporary directory', async () => {
    const dir = await fresh()
    await generateFixture(tiny(2), dir)
    const before = await list(dir)
    await expect(
      writeDirectoryAtomically(dir, async (temp) => {
        await writeFile(join(temp, 'part-001.fa'), 'half')
        throw new Error('disk full')
      }),
    ).rejects.toThrow('disk full')
    const controller = new AbortController()
    const aborted = writeDirectoryAtomically(
      dir,
      async (temp) => {
        await writeFile(join(temp, 'part-001.fa'), 'half')
        controller.abort(new Error('SIGTERM'))
        return 1
      },
      { signal: controller.signal },
    )
    await expect(aborted).rejects.toThrow('SIGTERM')
    expect(await list(dir)).toEqual(before)
    expect(await readFile(join(dir, 'part-001.fa'), 'utf8')).not.toBe('half')
  })

  test('a new directory that appears meanwhile (another worker) is left as that writer made it', async () => {
    const dir = join(root, `race${made++}`)
    await expect(
      writeDirectoryAtomically(dir, async (temp) => {
        await mkdir(dir)
        await writeFile(join(dir, 'theirs'), 'x')
        await writeFile(join(temp, 'ours'), 'y')
      }),
    ).rejects.toThrow(`${dir}: appeared while the fixture was written; write it again`)
    expect(await list(dir)).toEqual(['theirs'])
    expect((await readdir(root)).filter((name) => name.startsWith(`.race${made - 1}.tmp-`))).toEqual([])
  })
})
