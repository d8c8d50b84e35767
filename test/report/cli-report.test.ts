// `virnucpro-bench report` through src/cli/report.ts run(): the demo run on a fresh output dir, usage errors, bad records.
import { cp, mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { run } from '../../src/cli/report.ts'
import { UsageError } from '../../src/cli/usage-error.ts'
import { REPORT_FILES } from '../../src/report/write.ts'
import { DEMO_DIR } from './support/demo.ts'

let work: string
beforeEach(async () => {
  work = await mkdtemp(join(tmpdir(), 'cli-report-'))
  vi.spyOn(console, 'log').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(async () => {
  vi.restoreAllMocks()
  await rm(work, { recursive: true, force: true })
})

test('rebuilds every report from the committed demo records', async () => {
  expect(await run([DEMO_DIR, '--out', join(work, 'r')])).toBe(0)
  expect((await readdir(join(work, 'r'))).sort()).toEqual([...REPORT_FILES].sort())
})

test('a bad record file is listed on stderr, not fatal', async () => {
  const dir = join(work, 'results')
  await cp(DEMO_DIR, dir, { recursive: true })
  await writeFile(join(dir, 'broken.json'), '{"kind": "scaling"}')
  expect(await run([dir, '--out', join(work, 'r')])).toBe(0)
  expect(console.error).toHaveBeenCalledWith(
    expect.stringMatching(/invalid record .*broken\.json: not a valid result record/),
  )
})

test('--fail-on-regression exits 1 when a run regressed against the baseline', async () => {
  const slow = join(work, 'slow')
  await cp(DEMO_DIR, slow, { recursive: true })
  const file = join(slow, 'scaling-reference.json')
  const record = JSON.parse(await readFile(file, 'utf8'))
  // four 1-GPU runs a side (the gate's minimum), 50% slower
  const ones = record.runs.filter((r: { label: string }) => r.label.startsWith('1 GPU'))
  record.runs = [...ones, { ...ones[0], label: '1 GPU #4' }]
  const base = structuredClone(record)
  for (const r of record.runs) r.run.wallMs *= 1.5
  await writeFile(file, JSON.stringify(record))
  const baseDir = join(work, 'base')
  await cp(DEMO_DIR, baseDir, { recursive: true })
  await writeFile(join(baseDir, 'scaling-reference.json'), JSON.stringify(base))
  expect(await run([slow, '--baseline', baseDir, '--out', join(work, 'r'), '--fail-on-regression'])).toBe(1)
  expect(console.log).toHaveBeenCalledWith(expect.stringContaining('REGRESSION scaling-reference/1 GPU wall time'))
  expect(await run([slow, '--baseline', baseDir, '--out', join(work, 'r2')])).toBe(0)
})

test('usage errors name the problem', async () => {
  await expect(run([join(work, 'missing')])).rejects.toThrow(UsageError)
  await expect(run([DEMO_DIR, '--bogus'])).rejects.toThrow(/report: /)
  // Several RESULTS_DIRs are merged (test/cli/report-fleet.test.ts); each must be a directory.
  await expect(run([DEMO_DIR, join(work, 'missing')])).rejects.toThrow(/RESULTS_DIR '.*missing' is not a directory/)
})
