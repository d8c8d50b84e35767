// `virnucpro-bench report RESULTS_DIR --history FILE` through src/cli/report.ts run(), on real SQLite histories.
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { afterEach, beforeEach, expect, test, vi } from 'vitest'
import { formatHelp } from '../../src/cli/help.ts'
import { run } from '../../src/cli/report.ts'
import { reportSpec } from '../../src/cli/specs.ts'
import { DEMO_DIR } from '../report/support/demo.ts'
import { syntheticHeadlineHistory } from '../report/support/history.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const root = tempDirUntilFileEnd('cli-report-history-')
const history = syntheticHeadlineHistory(root, {
  names: ['wall/1 GPU', 'energy/1 GPU'],
  steps: [{ metrics: ['wall/1 GPU'], atRun: 15, factor: 1.4 }],
})
let out = 0
const freshOut = () => join(root, `reports-${++out}`)

beforeEach(() => {
  vi.spyOn(console, 'log').mockImplementation(() => {})
  vi.spyOn(console, 'error').mockImplementation(() => {})
})
afterEach(() => vi.restoreAllMocks())

test('--history FILE: trend charts and the change-point table in index.html, the section in summary.md and .json', async () => {
  const dir = freshOut()
  expect(await run([DEMO_DIR, '--history', history, '--out', dir])).toBe(0)
  const html = await readFile(join(dir, 'index.html'), 'utf8')
  const trends = html.slice(html.indexOf('<h2>Trends over the history</h2>'))
  expect(trends.match(/<div class="chart trend"><svg/g)).toHaveLength(2)
  expect(trends.match(/<line [^>]*stroke="#cf222e" stroke-width="1.5" stroke-dasharray="6,3"/g)).toHaveLength(1)
  expect(await readFile(join(dir, 'summary.md'), 'utf8')).toMatch(/\| regression \| wall\/1 GPU \| synthetic \|/)
  expect(JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')).trends).toMatchObject({
    state: 'loaded',
    file: history,
  })
  expect(console.log).toHaveBeenCalledWith(
    expect.stringContaining('gpu-report: trends: 1 change point(s) (1 regression(s))'),
  )
})

test('a --history that cannot be used is a note naming the file, exit 0 all the same', async () => {
  const dir = freshOut()
  const missing = join(root, 'missing.sqlite')
  expect(await run([DEMO_DIR, '--history', missing, '--out', dir])).toBe(0)
  const notes = JSON.parse(await readFile(join(dir, 'summary.json'), 'utf8')).notes as string[]
  expect(notes).toContainEqual(
    expect.stringContaining(`history not used, no trends: no history database at ${missing}`),
  )
  expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain(
    `> **History not used, no trends: no history database at ${missing}`,
  )
})

test('without --history: the trends section is one line', async () => {
  const dir = freshOut()
  expect(await run([DEMO_DIR, '--out', dir])).toBe(0)
  expect(await readFile(join(dir, 'summary.md'), 'utf8')).toContain(
    '## Trends over the history\n\n_No history database given',
  )
})

test('--help lists --history FILE, says an unusable one is a note, and shows it in an example', () => {
  const help = formatHelp(reportSpec)
  expect(help).toMatch(/^ {2}--history FILE\s+a history database \(history add\): trend charts over commits/m)
  expect(help).toContain(
    'A --history FILE that cannot be used (missing, locked, a newer schema) is a note in the reports',
  )
  expect(help).toMatch(/^ {2}virnucpro-bench report \S+ --history results\/history\.sqlite$/m)
})
