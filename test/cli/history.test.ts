import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { DatabaseSync } from 'node:sqlite'
import { execa } from 'execa'
import { beforeAll, describe, expect, test } from 'vitest'
import { METRIC_FAMILIES } from '../../src/history/metric-names.ts'
import { SCHEMA_VERSION } from '../../src/history/schema.ts'
import { CAPACITY_CPU, CAPACITY_H200, runDirWith, SCALING_RUN_DIR } from '../history/support/fixtures.ts'
import { insertSyntheticHistory, syntheticCommit } from '../history/support/synthetic-history.ts'
import { tempDirUntilFileEnd } from '../support/temp-dir.ts'

// The real CLI as a real process, on real SQLite files and the real result records of test/fixtures.
const root = tempDirUntilFileEnd('history-cli-')
const history = (args: string[], env: Record<string, string> = {}) =>
  execa('node', ['src/cli.ts', 'history', ...args], { env, reject: false, timeout: 60_000 })

describe('virnucpro-bench history on real records', () => {
  const db = join(root, 'real.sqlite')
  const capacityDir = runDirWith(root, 'capacity-run', [CAPACITY_H200])
  const cpuDir = runDirWith(root, 'cpu-run', [CAPACITY_CPU])
  writeFileSync(join(cpuDir, 'truncated.json'), '{"schemaVersion": 1, "id": "trunc')
  writeFileSync(join(cpuDir, 'wrong.json'), JSON.stringify({ schemaVersion: 1, id: 'wrong' }))

  beforeAll(async () => {
    const added = await history(['add', SCALING_RUN_DIR, capacityDir, cpuDir, '--db', db])
    expect(added.exitCode, added.stderr).toBe(0)
    expect(added.stdout).toContain('run 2026-03-02T09-30-00Z-de30: added 2 record(s) with 11 metric(s)')
  })

  test('invalid records are named with why and skipped; the valid record of the same directory is added', async () => {
    const again = await history(['add', cpuDir, '--db', db])
    expect(again.exitCode).toBe(0)
    const lines = again.stderr.trim().split('\n')
    expect(lines).toEqual([
      expect.stringMatching(/invalid record .*\/cpu-run\/truncated\.json: not valid JSON: .*\(skipped\)$/),
      expect.stringMatching(/invalid record .*\/cpu-run\/wrong\.json: not a valid result record: \w+: .*\(skipped\)$/),
    ])
    expect(again.stdout).toContain('run 2026-03-04T08-00-00Z-ca9a: already present (1 records)')
  })

  test('adding a run again is idempotent: already present, and list shows the same runs', async () => {
    const before = await history(['list', '--db', db, '--json'])
    const again = await history(['add', SCALING_RUN_DIR, '--db', db])
    expect(again.stdout).toContain('run 2026-03-02T09-30-00Z-de30: already present (2 records)')
    expect((await history(['list', '--db', db, '--json'])).stdout).toBe(before.stdout)
  })

  test('list: one line per run, oldest first, with host, GPU, commit (and whose), records, metrics', async () => {
    const text = await history(['list', '--db', db])
    expect(text.exitCode).toBe(0)
    const lines = text.stdout.split('\n')
    expect(lines[0]).toMatch(/^run\s+created\s+host\s+GPU\s+commit\s+records\s+metrics$/)
    expect(lines[1]).toMatch(
      /^2026-03-02T09-30-00Z-de30\s+2026-11-22T00:26:22.617Z\s+demo-host\s+no GPU\s+3a14f2d \(suite\)\s+2\s+11$/,
    )
    expect(lines[2]).toMatch(/^\S+\s+2026-11-24T12:41:00.990Z\s+vm\s+NVIDIA H200\s+0e04bd9 \(suite\)\s+1\s+17$/)
    const json = JSON.parse((await history(['list', '--db', db, '--json'])).stdout)
    expect(json.runs.map((r: { runId: string }) => r.runId)).toEqual([
      '2026-03-02T09-30-00Z-de30',
      '2026-11-24T12-37-22Z-afb8',
      '2026-03-04T08-00-00Z-ca9a',
    ])
  })

  test('show: the metric per host and GPU with value, CI, runs and verdict; --json has the points', async () => {
    const text = await history(['show', 'capacity/1/perf01/6000000', '--db', db, '--gpu', 'NVIDIA H200'])
    expect(text.exitCode).toBe(0)
    expect(text.stdout).toContain(
      'capacity/1/perf01/6000000 (h, lower is better) of capacity-1-GPU on vm / NVIDIA H200\n',
    )
    expect(text.stdout).toMatch(
      /2026-11-24T12:41:00.990Z\s+2026-11-24T12-37-22Z-afb8\s+0e04bd9\s+5.574\s+\[5.341, 5.825\]\s+pass/,
    )
    expect(text.stdout).not.toContain('(fake)')
    const json = JSON.parse((await history(['show', 'wall/1 GPU', '--db', db, '--json'])).stdout)
    expect(json.series).toHaveLength(1)
    expect(json.series[0].points[0]).toMatchObject({
      runId: '2026-03-02T09-30-00Z-de30',
      recordId: 'scaling-reference',
      commitOf: 'suite',
      n: 3,
      ci: { low: 11_130.722794000001, high: 13_088.073814000003 },
    })
  })

  test('show of a metric that does not exist: exit 2, the known names closest first', async () => {
    const result = await history(['show', 'wall/1 GPUs', '--db', db])
    expect(result.exitCode).toBe(2)
    expect(result.stderr.trim().split('\n')).toHaveLength(1)
    expect(result.stderr).toContain("no metric 'wall/1 GPUs' in")
    expect(result.stderr).toMatch(/known metrics, closest first: 'wall\/1 GPU', 'wall\/2 GPUs', /)
  })

  test('a database from a newer schema: exit 3, one line naming the file and both versions', async () => {
    const newer = join(root, 'newer.sqlite')
    const raw = new DatabaseSync(newer)
    raw.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`)
    raw.close()
    const result = await history(['list', '--db', newer])
    expect(result.exitCode).toBe(3)
    expect(result.stderr.trim()).toBe(
      `virnucpro-bench: history list: history database ${newer} has schema version ${SCHEMA_VERSION + 1}; this virnucpro-bench supports up to version ${SCHEMA_VERSION}: use a newer virnucpro-bench, or another --db`,
    )
  })
})

describe('virnucpro-bench history changes', () => {
  const confirmedTonight = join(root, 'confirmed-tonight.sqlite')
  const slowTonight = join(root, 'slow-tonight.sqlite')
  const slowTwoNights = join(root, 'slow-two-nights.sqlite')
  const stepEarlier = join(root, 'step-earlier.sqlite')
  // 40 nights, one commit each; wall/A and wall/B step +15% together at night 37: tonight's run is the third at the
  // new level, the one that confirms the change.
  insertSyntheticHistory(confirmedTonight, {
    runs: 40,
    metrics: 3,
    names: ['wall/A', 'wall/B', 'wall/C'],
    step: { metrics: ['wall/A', 'wall/B'], atRun: 37, factor: 1.15 },
  })
  // Only tonight's run is slow: no change point yet, its runs against the window's, a suspect.
  insertSyntheticHistory(slowTonight, {
    runs: 40,
    metrics: 2,
    names: ['wall/A', 'wall/B'],
    step: { metrics: ['wall/A'], atRun: 39, factor: 1.15 },
  })
  // Last night and tonight slow: still no change point; the second slow night confirms it.
  insertSyntheticHistory(slowTwoNights, {
    runs: 40,
    metrics: 2,
    names: ['wall/A', 'wall/B'],
    step: { metrics: ['wall/A'], atRun: 38, factor: 1.15 },
  })
  insertSyntheticHistory(stepEarlier, {
    runs: 40,
    metrics: 2,
    step: { metrics: ['synthetic/m1'], atRun: 20, factor: 1.1 },
  })
  const range = (from: number, to: number) => `${syntheticCommit(from).slice(0, 7)}..${syntheticCommit(to).slice(0, 7)}`

  test("a regression the night's run confirms: exit 1; the commit range, medians with CIs, what moved with it", async () => {
    const result = await history(['changes', '--db', confirmedTonight])
    expect(result.exitCode).toBe(1)
    expect(result.stdout).toContain(
      `REGRESSION wall/A of synthetic on synthetic-host / NVIDIA H200: ${range(36, 37)} (runs synthetic-000036..synthetic-000037) [confirmed by the newest run]`,
    )
    expect(result.stdout).toMatch(
      /before 1\d{3}(\.\d+)? ms \[.*\] \(n 37\), after 1\d{3}(\.\d+)? ms \[.*\] \(n 3\): \+1\d\.\d%, p 0\.0\d+/,
    )
    expect(result.stdout).toContain('moved with it: wall/B +')
    const gate = result.stdout.slice(
      result.stdout.indexOf('REGRESSION: the newest run brings 2 regression(s) to light:'),
    )
    expect(gate.split('\n').slice(1, 3)).toEqual([
      expect.stringMatching(
        new RegExp(
          `^  wall/A of synthetic on synthetic-host / NVIDIA H200: \\+1\\d\\.\\d% in ${range(36, 37)} \\(change point confirmed\\)$`,
        ),
      ),
      expect.stringMatching(/^ {2}wall\/B of synthetic .* \(change point confirmed\)$/),
    ])
  })

  test("tonight's runs slower than the window's: a suspect, exit 0, with the commit range; --json has it as data", async () => {
    const text = await history(['changes', '--db', slowTonight])
    expect(text.exitCode, text.stdout).toBe(0)
    expect(text.stdout).toContain('no change points in 2 series')
    expect(text.stdout).toMatch(
      /regressed wall\/A of synthetic on synthetic-host \/ NVIDIA H200 \(runs\): ratio 1\.1\d+/,
    )
    expect(text.stdout).toContain('SUSPECTED: the newest run alone regressed in 1 series')
    expect(text.stdout).toContain(
      `in ${range(38, 39)} (newest run against the last stable window, this run alone)\nno regression brought to light by the newest run`,
    )
    const result = await history(['changes', '--db', slowTonight, '--metric', 'wall/A', '--json'])
    expect(result.exitCode).toBe(0)
    const report = JSON.parse(result.stdout)
    expect(report).toMatchObject({ newestCommit: syntheticCommit(39), seriesJudged: 1, exitCode: 0, changes: [] })
    expect(report.regressions).toEqual([])
    expect(report.suspects).toEqual([
      expect.objectContaining({
        metric: 'wall/A',
        how: 'newest-vs-window',
        fromCommit: syntheticCommit(38),
        toCommit: syntheticCommit(39),
        pointsRegressed: 1,
      }),
    ])
    // Tonight's 3 runs against the runs of the 39 nights before, less the 2 a change could still start at: 37 x 3.
    expect(report.newest[0]).toMatchObject({ basis: 'runs', comparison: { candidate: { n: 3 }, baseline: { n: 111 } } })
  })

  test('a second slow night confirms it: exit 1, naming where it started; --json-file beside the text', async () => {
    const text = await history(['changes', '--db', slowTwoNights])
    expect(text.exitCode, text.stdout).toBe(1)
    expect(text.stdout).toContain('no change points in 2 series')
    expect(text.stdout).toContain(
      `REGRESSION: the newest run brings 1 regression(s) to light:\n  wall/A of synthetic on synthetic-host / NVIDIA H200: +`,
    )
    expect(text.stdout).toContain(
      `in ${range(37, 38)} (newest run against the last stable window, 2 runs regressed since it started)`,
    )
    const result = await history(['changes', '--db', slowTwoNights, '--metric', 'wall/A', '--json'])
    expect(result.exitCode).toBe(1)
    const report = JSON.parse(result.stdout)
    expect(report.regressions).toEqual([
      expect.objectContaining({
        how: 'newest-vs-window',
        fromCommit: syntheticCommit(37),
        toCommit: syntheticCommit(38),
        pointsRegressed: 2,
      }),
    ])
    // --json-file: the same JSON in a file, the text on stdout, from one analysis (what the nightly job keeps).
    const jsonFile = join(root, 'changes.json')
    const both = await history(['changes', '--db', slowTwoNights, '--metric', 'wall/A', '--json-file', jsonFile])
    expect(both.exitCode).toBe(1)
    expect(both.stdout).toContain('REGRESSION: the newest run brings 1 regression(s) to light:')
    expect(JSON.parse(readFileSync(jsonFile, 'utf8'))).toEqual(report)
  })

  test('a regression 20 commits back is reported but does not fail the gate (exit 0); --min-effect above it hides it', async () => {
    const result = await history(['changes', '--db', stepEarlier])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toContain('1 change point(s) in 2 series:')
    expect(result.stdout).toContain('no regression brought to light by the newest run')
    const strict = await history(['changes', '--db', stepEarlier, '--min-effect', '0.3'])
    expect(strict.stdout).toContain('no change points in 2 series')
  })

  test('bad arguments exit 2 with one line: --min-effect out of range, an unknown metric, a stray argument', async () => {
    for (const args of [['--min-effect', '1.5'], ['--metric', 'wall/Z'], ['extra']]) {
      const result = await history(['changes', '--db', stepEarlier, ...args])
      expect(result.exitCode, args.join(' ')).toBe(2)
      expect(result.stderr.trim().split('\n')).toHaveLength(1)
    }
  })

  test('the default database is $VIRNUCPRO_BENCH_HISTORY', async () => {
    const result = await history(['list'], { VIRNUCPRO_BENCH_HISTORY: stepEarlier })
    expect(result.stdout).toContain(`40 run(s) in ${stepEarlier}`)
  })
})

test.each(['add', 'list', 'show', 'changes'])(
  'history %s --help: usage, options and an example, exit 0',
  async (name) => {
    const result = await history([name, '--help'])
    expect(result.exitCode).toBe(0)
    expect(result.stdout).toMatch(new RegExp(`^usage: virnucpro-bench history ${name} \\[options\\]`))
    expect(result.stdout).toContain('--db FILE')
    expect(result.stdout).toMatch(/\nexamples?:\n {2}virnucpro-bench history /)
    // show's help lists every metric family the history stores, from the one list (metric-names.ts).
    if (name === 'show')
      for (const f of METRIC_FAMILIES) expect(result.stdout).toContain(`  ${f.pattern} (${f.unit}): `)
  },
)
