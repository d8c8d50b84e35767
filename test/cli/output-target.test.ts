import { execFileSync } from 'node:child_process'
import { mkdirSync, symlinkSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { checkOutputTarget, runDirHolding } from '../../src/cli/output-target.ts'
import { enclosingRunDir, runDirMark } from '../../src/results/run-dir-marks.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('output-target-')
const RECORD = JSON.stringify({ kind: 'capacity', runs: [] })
const STATE = JSON.stringify({ format: 1, state: 'interrupted', key: {}, startedAt: '', updatedAt: '', command: [] })
/** A run by its state only (a pinned ID, cut before any record), a run by its record, a folder only named as one. */
const pinned = join(root, 'pin1')
mkdirSync(join(pinned, 'work', 'deep'), { recursive: true })
writeFileSync(join(pinned, 'work', 'state.json'), STATE)
const recorded = join(root, 'copied-run')
mkdirSync(recorded)
writeFileSync(join(recorded, 'capacity-1-GPU.json'), RECORD)
const named = join(root, 'results', '2026-11-29T06-00-00Z-ab12')
mkdirSync(join(named, 'work'), { recursive: true })
const read = join(root, 'read-dir')
mkdirSync(read)

const check = (target: string, readDirs: string[] = []) =>
  checkOutputTarget({ command: 'capacity', option: '--json', target, instead: 'a new file' }, readDirs)

describe('a run directory is known by what it holds', () => {
  test('a record, work/state.json, a writer lock, a journal, a task work directory; never the name alone', () => {
    expect(runDirMark(pinned)).toBe("work/state.json, a run's state")
    expect(runDirMark(recorded)).toBe('capacity-1-GPU.json, a result record')
    expect(runDirMark(named)).toBeNull()
    const lock = join(root, 'lock')
    mkdirSync(join(lock, 'work'), { recursive: true })
    writeFileSync(join(lock, 'work', '.writer.json'), '{"token":"t1","host":"h","pid":1}')
    expect(runDirMark(lock)).toBe("work/.writer.json, a run's writer lock")
    const task = join(root, 'task')
    mkdirSync(join(task, 'work', 'node07-t0', 'measurements'), { recursive: true })
    expect(runDirMark(task)).toBeNull()
    writeFileSync(join(task, 'work', 'node07-t0', 'measurements', 'capacity-1-GPU-0a1b.json'), '{"purpose":{}}')
    expect(runDirMark(task)).toBe('work/node07-t0/measurements/, a run journal')
    // Files of the same common names another tool left in a work/ folder of the user's make no run of it.
    const tool = join(root, 'tool')
    mkdirSync(join(tool, 'work'), { recursive: true })
    writeFileSync(join(tool, 'work', 'state.json'), '{"step":3}')
    writeFileSync(join(tool, 'work', '.writer.json'), '')
    expect(runDirMark(tool)).toBeNull()
    // JSON that is no record (a report's summary, a refit) makes no run.
    const other = join(root, 'other')
    mkdirSync(other)
    writeFileSync(join(other, 'summary.json'), '{"kind":"summary"}')
    expect(runDirMark(other)).toBeNull()
  })

  test('the nearest folder at or above a path that holds one, links followed', () => {
    expect(enclosingRunDir(join(pinned, 'work', 'deep', 'x.json'))?.dir).toBe(pinned)
    expect(enclosingRunDir(join(named, 'work', 'x.json'))).toBeNull()
    const link = join(root, 'link-to-run')
    symlinkSync(join(pinned, 'work'), link)
    expect(enclosingRunDir(join(link, 'x.json'))?.dir).toBe(pinned)
  })
})

test('a file inside a run directory read is in it, whatever it holds; a neighbour whose name starts alike is not', () => {
  expect(runDirHolding(join(read, 'x.json'), [read])?.dir).toBe(read)
  expect(runDirHolding(join(root, 'refit.json'), [read])).toBeNull()
  expect(runDirHolding(`${read}-2/x.json`, [read])).toBeNull()
})

test('an existing record is refused wherever it is; any other file outside runs is a target', () => {
  const loose = join(root, 'loose')
  mkdirSync(loose)
  const record = join(loose, 'record.json')
  writeFileSync(record, RECORD)
  expect(() => check(record)).toThrow(/^capacity: --json '.*record\.json' is a result record/)
  // Beside it: its folder is read as a run directory (its record), so a refit there would be read as a bad record.
  expect(() => check(join(loose, 'refit.json'))).toThrow(/is inside the run directory '.*loose' \(record\.json/)
  const other = join(root, 'other.json')
  writeFileSync(other, '{"not":"a record"}')
  expect(() => check(other, [read])).not.toThrow()
  // A FIFO is never read (reading it would block): it is no record, and the write decides what becomes of it.
  const fifo = join(root, 'fifo.json')
  execFileSync('mkfifo', [fifo])
  expect(() => check(fifo)).not.toThrow()
  expect(() => check(join(named, 'refit.json'))).not.toThrow()
  expect(() => check(join(pinned, 'work', 'state.json'))).toThrow(
    /^capacity: --json '.*state\.json' is inside the run directory '.*pin1' \(work\/state\.json, a run's state\)/,
  )
  expect(() => check(pinned)).toThrow(/--json '.*pin1' is the run directory/)
})
