// Reading a report's trends from a history database: real SQLite files in a temp dir, the unusable ones included.
import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { describe, expect, test } from 'vitest'
import { SCHEMA_VERSION } from '../../src/history/schema.ts'
import { buildReport } from '../../src/report/analyses/build.ts'
import { trendFamilyOf } from '../../src/report/analyses/trend-families.ts'
import { loadTrendsInput, reporterHistoryFile } from '../../src/report/history-input.ts'
import { loadReportInput } from '../../src/report/load.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'
import { DEMO_DIR } from './support/demo.ts'
import { addNights, realRecords, syntheticHeadlineHistory } from './support/history.ts'

const root = tempDirUntilFileEnd('report-history-input-')

describe('a usable history', () => {
  test('reads only the headline series, with CIs and verdict states, and the change points of those with 2+ points', async () => {
    const file = join(root, 'real.sqlite')
    addNights(file, await realRecords(), 2)
    const input = loadTrendsInput({ file })
    if (input.state !== 'loaded') throw new Error(input.reason)
    expect(input.file).toBe(file)
    expect(input.series.length).toBeGreaterThan(0)
    for (const s of input.series) expect(trendFamilyOf(s.metric.name), s.metric.name).not.toBeNull()
    const names = new Set(input.series.map((s) => s.metric.name))
    expect(names).toContain('capacity/1/perf01/6000000')
    expect(names).not.toContain('scaling/total/2gpu')
    const perf02 = input.series.find((s) => s.metric.name === 'perf02/ESM-2 Feature Extraction/1gpu/gpu0')!
    expect(perf02.detail?.verdicts).toHaveLength(2)
    expect(perf02.detail?.verdicts[0]).toMatch(/^(pass|fail|inconclusive)$/)
    expect(input.changes.seriesJudged).toBe(input.series.length)
  })

  test('a planted step comes back as a change point of its series', () => {
    const file = syntheticHeadlineHistory(root, {
      names: ['wall/1 GPU', 'energy/1 GPU'],
      step: { metrics: ['wall/1 GPU'], atRun: 15, factor: 1.4 },
    })
    const input = loadTrendsInput({ file })
    if (input.state !== 'loaded') throw new Error(input.reason)
    expect(input.changes.changes.map((c) => [c.metric, c.index, c.regression])).toEqual([['wall/1 GPU', 15, true]])
  })
})

describe('a history that cannot be used is unavailable, with why and the file named, never an exception', () => {
  test('missing: and no file is created', () => {
    const file = join(root, 'missing.sqlite')
    expect(loadTrendsInput({ file })).toEqual({
      state: 'unavailable',
      file,
      reason: expect.stringMatching(new RegExp(`^no history database at ${file}`)),
    })
    expect(existsSync(file)).toBe(false)
  })

  test('written by a newer virnucpro-bench', () => {
    const file = syntheticHeadlineHistory(root, { names: ['wall/1 GPU'] })
    const db = new DatabaseSync(file)
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
    db.close()
    expect(loadTrendsInput({ file })).toMatchObject({
      state: 'unavailable',
      reason: expect.stringMatching(new RegExp(`${file} has schema version ${SCHEMA_VERSION + 1}.*use a newer`)),
    })
  })

  test('locked by another connection: after a bounded wait', () => {
    const file = syntheticHeadlineHistory(root, { names: ['wall/1 GPU'] })
    const holder = new DatabaseSync(file)
    holder.exec('PRAGMA locking_mode = EXCLUSIVE')
    holder.exec('BEGIN EXCLUSIVE')
    holder.exec("INSERT INTO runs (run_id, added_at, source_dir) VALUES ('holder', 'now', 'here')")
    try {
      const started = performance.now()
      const input = loadTrendsInput({ file, busyTimeoutMs: 50, retries: 1 })
      expect(performance.now() - started).toBeLessThan(5_000)
      expect(input).toMatchObject({ state: 'unavailable', reason: expect.stringContaining(`${file} is locked`) })
    } finally {
      holder.exec('ROLLBACK')
      holder.close()
    }
    expect(loadTrendsInput({ file }).state).toBe('loaded')
  })

  test('not a database', () => {
    const file = join(root, 'notes.sqlite')
    writeFileSync(file, 'not a database, just text\n'.repeat(200))
    expect(loadTrendsInput({ file })).toMatchObject({
      state: 'unavailable',
      reason: `history database ${file} is not an SQLite database: name a virnucpro-bench history instead (history add creates one)`,
    })
  })
})

describe('the report input', () => {
  test('an unusable history: a note naming the file and why, and trends that say so', async () => {
    const file = join(root, 'gone.sqlite')
    const report = buildReport(await loadReportInput({ resultsDir: DEMO_DIR, history: file }))
    expect(report.notes).toContainEqual(
      expect.stringMatching(new RegExp(`^history not used, no trends: no history database at ${file}`)),
    )
    expect(report.trends).toMatchObject({ state: 'unavailable', file })
  })

  test('no history asked for: no trends, no note', async () => {
    const report = buildReport(await loadReportInput({ resultsDir: DEMO_DIR }))
    expect(report.trends).toBeNull()
    expect(report.notes.some((n) => n.includes('history'))).toBe(false)
  })
})

describe('the reporter takes $VIRNUCPRO_BENCH_HISTORY when it names an existing file', () => {
  test.each([
    ['unset', {}],
    ['empty', { VIRNUCPRO_BENCH_HISTORY: ' ' }],
    ['missing (the first night: history add creates it after the reports)', { VIRNUCPRO_BENCH_HISTORY: 'nope.sqlite' }],
  ])('%s: none', (_, env) => {
    expect(reporterHistoryFile(env)).toBeNull()
  })

  test('existing: that file, resolved', () => {
    const file = syntheticHeadlineHistory(root, { names: ['wall/1 GPU'], runs: 2 })
    expect(reporterHistoryFile({ VIRNUCPRO_BENCH_HISTORY: file })).toBe(file)
  })
})
