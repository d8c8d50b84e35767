import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { checkOutputTarget, runDirHolding } from '../../src/cli/output-target.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('output-target-')
const run = join(root, 'results', '2026-11-29T06-00-00Z-ab12')
mkdirSync(join(run, 'work'), { recursive: true })
const read = join(root, 'copied-run')
mkdirSync(read)

test('a file inside a run directory read, or under a folder named as a run, is in that run directory', () => {
  expect(runDirHolding(join(read, 'x.json'), [read])).toBe(read)
  expect(runDirHolding(join(run, 'capacity-1-GPU.json'), [])).toBe(run)
  expect(runDirHolding(join(run, 'work', 'deep', 'x.json'), [])).toBe(run)
  expect(runDirHolding(join(root, 'refit.json'), [read, run])).toBeNull()
  // A neighbour whose name starts like the directory is not inside it.
  expect(runDirHolding(`${read}-2/x.json`, [read])).toBeNull()
})

test('a link to a run directory is followed', () => {
  const link = join(root, 'link-to-run')
  symlinkSync(read, link)
  expect(runDirHolding(join(link, 'x.json'), [read])).toBe(read)
})

test('an existing record is refused wherever it is; any other file outside runs is a target', () => {
  const record = join(root, 'record.json')
  writeFileSync(record, JSON.stringify({ kind: 'capacity', runs: [] }))
  expect(() => checkOutputTarget('capacity', '--json', record, [])).toThrow(/is a result record/)
  const other = join(root, 'other.json')
  writeFileSync(other, '{"not":"a record"}')
  expect(() => checkOutputTarget('capacity', '--json', other, [read])).not.toThrow()
  // A FIFO is never read (reading it would block): it is no record, and the write decides what becomes of it.
  const fifo = join(root, 'fifo.json')
  execFileSync('mkfifo', [fifo])
  expect(() => checkOutputTarget('capacity', '--json', fifo, [])).not.toThrow()
  expect(() => checkOutputTarget('capacity', '--json', join(run, 'refit.json'), [])).toThrow(
    /^capacity: --json '.*refit\.json' is inside the run directory '.*ab12'/,
  )
})
