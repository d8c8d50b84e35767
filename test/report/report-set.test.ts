// The swap of src/report/report-set.ts when a rename fails (the full-disk and crash cases run through the CLI in
// write-faults.test.ts): every file goes back, the earlier set whole, nothing of the failed write left.
import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { ReportSetError, replaceReportSet } from '../../src/report/report-set.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

/** Each entry of `dir` with its text, or `dir` for a directory (hidden ones too: a staging directory would show). */
const contentsOf = (dir: string) =>
  Object.fromEntries(
    readdirSync(dir).map((name) => {
      const path = join(dir, name)
      return [name, statSync(path).isDirectory() ? 'dir' : readFileSync(path, 'utf8')]
    }),
  )

test('a rename that fails midway moves every file back: the earlier set as it was, no staging directory left', async () => {
  const out = tempDirUntilFileEnd('report-set-')
  writeFileSync(join(out, 'a.md'), 'earlier a')
  writeFileSync(join(out, 'b.md'), 'earlier b')
  // Not of the set, so not moved aside, and a directory with a file in it: the new `c.md` cannot be renamed over it.
  mkdirSync(join(out, 'c.md'))
  writeFileSync(join(out, 'c.md', 'keep'), 'the user’s')
  const before = contentsOf(out)
  const contents = new Map([
    ['a.md', 'later a'],
    ['b.md', 'later b'],
    ['c.md', 'later c'],
  ])
  const error = await replaceReportSet(out, contents, ['a.md', 'b.md']).catch((e: unknown) => e)
  expect(error).toBeInstanceOf(ReportSetError)
  expect(error).toMatchObject({ file: join(out, 'c.md'), restored: true, keptIn: null })
  expect(contentsOf(out)).toEqual(before)
})

test('a set written over an earlier one: the new files in place, the earlier ones that the new set lacks gone', async () => {
  const out = tempDirUntilFileEnd('report-set-')
  writeFileSync(join(out, 'a.md'), 'earlier a')
  writeFileSync(join(out, 'github-benchmark.json'), 'earlier figures')
  writeFileSync(join(out, 'notes.txt'), 'the user’s')
  const written = await replaceReportSet(out, new Map([['a.md', 'later a']]), ['a.md', 'github-benchmark.json'])
  expect(written).toEqual({ files: [join(out, 'a.md')], removedLeftovers: [] })
  expect(contentsOf(out)).toEqual({ 'a.md': 'later a', 'notes.txt': 'the user’s' })
})
