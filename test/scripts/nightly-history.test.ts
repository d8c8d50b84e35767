// The nightly job's history step (scripts/nightly-history.sh, called by gpu-bench.yml) run for real: bash, the CLI in
// its own processes and a real SQLite file. The nights are the committed demo scaling record (real CPU runs of the
// reference pipeline) stored once a night at a commit of its own, its runs' wall times jittered by under 1% a night;
// the planted night's 1-GPU runs take 30% longer.
import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { execa } from 'execa'
import { describe, expect, test } from 'vitest'
import { historyRunsOf } from '../../src/history/entry.ts'
import { SCHEMA_VERSION } from '../../src/history/schema.ts'
import { HistoryStore } from '../../src/history/store.ts'
import type { ResultRecord } from '../../src/results/schema/index.ts'
import { storeResultRecord } from '../../src/results/store.ts'
import { readRecord, SCALING_RUN_DIR } from '../history/support/fixtures.ts'
import { syntheticCommit } from '../history/support/synthetic-history.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

const SCRIPT = join(import.meta.dirname, '../../scripts/nightly-history.sh')
const DAY_MS = 86_400_000
const root = tempDirUntilFileEnd('nightly-history-')
const demo = readRecord(join(SCALING_RUN_DIR, 'scaling-reference.json'))

/** The demo record as night `i`: its own run ID, day and commit; 1-GPU runs scaled by `slower` on top of the jitter. */
function night(i: number, slower = 1): ResultRecord {
  const record = structuredClone(demo)
  record.provenance.runId = `night-${String(i).padStart(3, '0')}`
  record.provenance.suite.git!.commit = syntheticCommit(i)
  record.createdAt = new Date(Date.parse(demo.createdAt) + i * DAY_MS).toISOString()
  record.runs.forEach((m, r) => {
    const factor = (1 + 0.008 * Math.sin(1.7 * i + r)) * (m.label.startsWith('1 GPU') ? slower : 1)
    m.run.wallMs *= factor
  })
  return record
}

let count = 0
/**
 * A history of `nights` nights (0..nights-1), the last `slowBefore` of them as slow as tonight, and tonight's run
 * directory (night `nights`).
 */
async function setUp(nights: number, tonightSlower: number, slowBefore = 0) {
  const dir = join(root, `case-${++count}`)
  const db = join(dir, 'results', 'history.sqlite')
  if (nights > 0) {
    using store = HistoryStore.open(db, { create: true })
    for (let i = 0; i < nights; i++) {
      const slower = i >= nights - slowBefore ? tonightSlower : 1
      store.addRun(historyRunsOf([night(i, slower)], 'earlier nights')[0]!)
    }
  }
  const runDir = join(dir, 'results', `night-${nights}`)
  await storeResultRecord(runDir, night(nights, tonightSlower))
  const files = { output: join(dir, 'github-output'), summary: join(dir, 'step-summary') }
  return { dir, db, runDir, files }
}

async function nightly(c: Awaited<ReturnType<typeof setUp>>, runDir = c.runDir) {
  const env = {
    VIRNUCPRO_BENCH_HISTORY: c.db,
    REPORTS_DIR: join(c.dir, 'reports'),
    GITHUB_OUTPUT: c.files.output,
    GITHUB_STEP_SUMMARY: c.files.summary,
  }
  const result = await execa('bash', [SCRIPT, runDir], { env, reject: false, cwd: c.dir })
  const output = existsSync(c.files.output) ? readFileSync(c.files.output, 'utf8') : ''
  return { ...result, output }
}

describe('scripts/nightly-history.sh', () => {
  test('the first night starts the history: exit 0, the step output, the job summary written once, from the rebuilt report', async () => {
    const c = await setUp(0, 1)
    const result = await nightly(c)
    expect(result.exitCode, result.stderr).toBe(0)
    expect(result.output).toBe('exit=0\n')
    expect(result.stdout).toContain('run night-000: added 1 record(s)')
    expect(result.stdout).toContain('no regression brought to light by the newest run')
    const summary = readFileSync(c.files.summary, 'utf8')
    expect(summary).toBe(readFileSync(join(c.dir, 'reports', 'summary.md'), 'utf8'))
    expect(summary.match(/^# VirNucPro benchmark report$/gm)).toHaveLength(1)
    expect(summary).toContain('### Change points')
    expect(JSON.parse(readFileSync(join(c.dir, 'reports', 'history-changes.json'), 'utf8'))).toMatchObject({
      exitCode: 0,
      newestRun: 'night-000',
    })
  }, 60_000)

  test('a stable night after twelve: exit 0', async () => {
    const c = await setUp(12, 1)
    const result = await nightly(c)
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.stdout).toMatch(/newest run night-012 .* against the last stable window:\n {2}\d+ unchanged/)
    // The reports are rebuilt with the night in the trends: 13 runs, this one the newest.
    const summary = readFileSync(join(c.dir, 'reports', 'summary.md'), 'utf8')
    expect(summary).toContain(`History ${c.db}: `)
    expect(summary).toMatch(/over 13 runs \\\(newest: run night-012, commit /)
  }, 60_000)

  test('tonight alone 30% slower on 1 GPU: exit 0, one warning annotation naming the metric, the change and the commits', async () => {
    const result = await nightly(await setUp(12, 1.3))
    expect(result.exitCode, result.stdout).toBe(0)
    expect(result.output).toBe('exit=0\n')
    expect(result.stdout.split('\n').filter((l) => l.startsWith('::error'))).toEqual([])
    const warnings = result.stdout.split('\n').filter((l) => l.startsWith('::warning'))
    const range = `${syntheticCommit(11).slice(0, 7)}..${syntheticCommit(12).slice(0, 7)}`
    expect(warnings).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::warning title=Suspected regression \\(one night\\)::wall/1 GPU of scaling-reference on demo-host / no GPU: \\+(29|30|31)\\.\\d% in ${range} \\(newest run against the last stable window, this run alone\\)$`,
        ),
      ),
    ])
  }, 60_000)

  test('the second 30% slower night: exit 1, one error annotation naming the commits where it started', async () => {
    const result = await nightly(await setUp(13, 1.3, 1))
    expect(result.exitCode, result.stdout).toBe(1)
    expect(result.output).toBe('exit=1\n')
    expect(result.stdout.split('\n').filter((l) => l.startsWith('::warning'))).toEqual([])
    const errors = result.stdout.split('\n').filter((l) => l.startsWith('::error'))
    const range = `${syntheticCommit(11).slice(0, 7)}..${syntheticCommit(12).slice(0, 7)}`
    expect(errors).toEqual([
      expect.stringMatching(
        new RegExp(
          `^::error title=Performance regression::wall/1 GPU of scaling-reference on demo-host / no GPU: \\+(29|30|31)\\.\\d% in ${range} \\(newest run against the last stable window, 2 runs regressed since it started\\)$`,
        ),
      ),
    ])
  }, 60_000)

  test('a database from a newer schema: exit 3 with its reason, and the step output says 3 (the workflow saves nothing)', async () => {
    const c = await setUp(3, 1)
    const db = new DatabaseSync(c.db)
    db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
    db.close()
    const result = await nightly(c)
    expect(result.exitCode).toBe(3)
    expect(result.output).toBe('exit=3\n')
    expect(result.stderr).toContain(`has schema version ${SCHEMA_VERSION + 1}`)
    expect(result.stdout).toContain('::error title=History not updated::history add exited 3')
  }, 60_000)

  test('no run directory (the GPU steps wrote nothing): exit 3, one annotation, nothing created', async () => {
    const c = await setUp(0, 1)
    const result = await nightly(c, join(c.dir, 'results', 'missing'))
    expect(result.exitCode).toBe(3)
    expect(result.stdout.trim()).toBe(
      `::error title=History not updated::no run directory ${join(c.dir, 'results', 'missing')}: the GPU steps wrote no records`,
    )
    expect(existsSync(c.db)).toBe(false)
    expect(readFileSync(c.files.summary, 'utf8')).toMatch(
      /^## No results\n\nNo run directory .*missing: the GPU steps wrote no records/,
    )
  }, 60_000)
})

// The workflow calls the script; a test of the script is a test of the job only if it does.
test('gpu-bench.yml runs this script as its history step, and saves the database only after exit 0 or 1', () => {
  const workflow = readFileSync(join(import.meta.dirname, '../../.github/workflows/gpu-bench.yml'), 'utf8')
  expect(workflow).toContain('run: bash scripts/nightly-history.sh "results/$VIRNUCPRO_BENCH_RUN_ID"')
  expect(workflow).toContain("(steps.history.outputs.exit == '0' || steps.history.outputs.exit == '1')")
})
