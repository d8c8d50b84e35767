import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checkOutDir } from '../../src/report/out-dir.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('out-dir-')
const NAMES = ['summary.md', 'summary.json', 'index.html']
const check = (dir: string) => checkOutDir(dir, NAMES, '--out')

describe('where reports may go', () => {
  test('a new directory (under a new one), an empty one, one of other names only, one of earlier reports', async () => {
    await expect(check(join(root, 'new', 'deeper'))).resolves.toBeUndefined()
    mkdirSync(join(root, 'empty'))
    await expect(check(join(root, 'empty'))).resolves.toBeUndefined()
    mkdirSync(join(root, 'other'))
    writeFileSync(join(root, 'other', 'history-changes.txt'), 'mine')
    await expect(check(join(root, 'other'))).resolves.toBeUndefined()
    mkdirSync(join(root, 'earlier'))
    writeFileSync(join(root, 'earlier', 'summary.json'), '{"schemaVersion": 1, "generatedAt": "x", "counts": {}}')
    writeFileSync(join(root, 'earlier', 'index.html'), '<html>')
    await expect(check(join(root, 'earlier'))).resolves.toBeUndefined()
  })

  test('a file, a path through a file, files of the report names no report wrote: refused, nothing touched', async () => {
    writeFileSync(join(root, 'file'), 'x')
    await expect(check(join(root, 'file'))).rejects.toThrow(`--out '${join(root, 'file')}' is a file, not a directory`)
    await expect(check(join(root, 'file', 'sub'))).rejects.toThrow(`cannot be made: '${join(root, 'file')}' is a file`)
    mkdirSync(join(root, 'site'))
    writeFileSync(join(root, 'site', 'index.html'), 'my page')
    await expect(check(join(root, 'site'))).rejects.toThrow(/already holds index\.html, which no earlier report wrote/)
    expect(readFileSync(join(root, 'site', 'index.html'), 'utf8')).toBe('my page')
    mkdirSync(join(root, 'dirs', 'summary.md'), { recursive: true })
    await expect(check(join(root, 'dirs'))).rejects.toThrow("holds 'summary.md', which is not a file")
  })

  // Issue 58: the reporter's reports directory (VIRNUCPRO_BENCH_REPORTS_DIR) as much as `report --out`.
  test('inside or over a run directory, known by what it holds (a pinned ID cut before its first record): refused', async () => {
    const run = join(root, 'pin1')
    mkdirSync(join(run, 'work'), { recursive: true })
    const state = { format: 1, state: 'interrupted', key: {}, startedAt: '', updatedAt: '', command: [] }
    writeFileSync(join(run, 'work', 'state.json'), JSON.stringify(state))
    await expect(checkOutDir(join(run, 'reports'), NAMES, 'reports directory')).rejects.toThrow(
      `reports directory '${join(run, 'reports')}' is inside the run directory '${run}' (work/state.json, a run's state)`,
    )
    await expect(check(run)).rejects.toThrow(`--out '${run}' is the run directory '${run}'`)
  })
})
